import { ConflictException, Injectable, Logger, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ProviderError } from '../gateway/provider-error';
import { WalletGateway } from '../gateway/wallet.gateway';
import { CreatePayoutSetupDto } from './create-payout-setup.dto';
import { PAYOUT_SETUP_ROW_ID, PayoutSetup } from './payout-setup.entity';
import { PayoutSetupRepository } from './payout-setup.repository';
import { httpErrorForProvider } from '../gateway/provider-error-to-http';
import { withErrorCode } from '../common/errors/coded-error';

/**
 * Fixed externalIDs: the identity and the wallet are made once per provider account, so a repeat (after an unknown
 * outcome, a crash between the call and the insert, or on another replica) gets the same objects back.
 */
const PAYOUT_IDENTITY_EXTERNAL_ID = 'payouts-identity-v1';
const PAYOUT_WALLET_EXTERNAL_ID = 'payouts-wallet-v1';

/** Setup order steps 1 and 2 of the spec: one identity and one corporate wallet, made once or adopted. */
@Injectable()
export class PayoutSetupService {
  private readonly readyListeners: ((setup: PayoutSetup) => Promise<void>)[] = [];
  private readonly logger = new Logger(PayoutSetupService.name);

  constructor(
    private readonly setups: PayoutSetupRepository,
    private readonly config: AppConfig,
    private readonly wallets: WalletGateway,
  ) {}

  /** The setup in force, or null before it is made. */
  /** Told once payouts are set up (the wallet's provider webhooks are wanted then). */
  onReady(listener: (setup: PayoutSetup) => Promise<void>): void {
    this.readyListeners.push(listener);
  }

  async find(): Promise<PayoutSetup | null> {
    return this.setups.find();
  }

  async get(): Promise<PayoutSetup> {
    const setup = await this.find();
    if (!setup) throw new NotFoundException('Payouts are not set up yet: POST /api/v1/payouts/setup');
    return setup;
  }

  /** The setup a payout or a destination needs; a business rule (422) when there is none yet. */
  async require(): Promise<PayoutSetup> {
    const setup = await this.find();
    if (!setup) throw new UnprocessableEntityException(['Payouts are not set up yet: POST /api/v1/payouts/setup first']);
    return setup;
  }

  /** Creates (or adopts) the identity and the wallet once; every later call answers the first result. */
  async setUp(dto: CreatePayoutSetupDto): Promise<PayoutSetup> {
    const adoptedIdentity = this.config.payoutIdentityId;
    const adoptedWallet = this.config.payoutWalletId;
    const existing = await this.find();
    // Ids set in the environment after an earlier setup win: the operator is switching wallets on purpose.
    const switching =
      existing !== null &&
      ((adoptedIdentity !== undefined && adoptedIdentity !== existing.identityId) || (adoptedWallet !== undefined && adoptedWallet !== existing.walletId));
    if (existing && !switching) return existing;
    if (adoptedWallet !== undefined && adoptedIdentity === undefined) {
      throw new UnprocessableEntityException(['PAYOUT_WALLET_ID is set without PAYOUT_IDENTITY_ID: destinations need the identity that owns the wallet']);
    }
    let identityId: string;
    let walletId: string;
    try {
      identityId =
        adoptedIdentity ??
        (await this.wallets.createIdentity({ name: dto.identityName, provider: dto.provider, class: dto.class, externalID: PAYOUT_IDENTITY_EXTERNAL_ID })).id;
      walletId =
        adoptedWallet ??
        (await this.wallets.createWallet({ name: dto.walletName, identity: identityId, currency: dto.currency, externalID: PAYOUT_WALLET_EXTERNAL_ID })).id;
    } catch (error) {
      if (error instanceof ProviderError) {
        this.logger.warn(`Payout setup failed: ${error.message}`);
        if (error.kind === 'conflict') {
          throw withErrorCode(
            new ConflictException(
              'The provider already holds a payout identity or wallet made by this daemon with other parameters; repeat the first setup, or adopt existing ones with PAYOUT_IDENTITY_ID and PAYOUT_WALLET_ID',
            ),
            'provider_conflict',
          );
        }
        throw httpErrorForProvider(error, 'set up payouts', 'setup');
      }
      throw error;
    }

    let currency = dto.currency;
    if (adoptedWallet !== undefined) {
      // An adopted wallet has its own currency: payouts in another one would be refused by the provider.
      const wallet = await this.wallets.getWallet(adoptedWallet).catch((error: unknown) => {
        throw error instanceof ProviderError ? httpErrorForProvider(error, 'set up payouts', 'setup') : error;
      });
      if (wallet.currency !== dto.currency) {
        throw new UnprocessableEntityException([`currency must be ${wallet.currency}, the currency of the wallet adopted from PAYOUT_WALLET_ID`]);
      }
      currency = wallet.currency;
    }
    const row = { id: PAYOUT_SETUP_ROW_ID, identityId, walletId, currency, adopted: adoptedIdentity !== undefined };
    if (switching) {
      await this.setups.save(row);
    } else {
      // Two replicas may race here; both got the same ids (same externalIDs), and the first insert wins.
      await this.setups.insertIfAbsent(row);
    }
    const setup = await this.get();
    for (const listener of this.readyListeners) await listener(setup);
    this.logger.log(`Payouts set up: identity ${setup.identityId}, wallet ${setup.walletId} (${setup.currency})${setup.adopted ? ', adopted from the environment' : ''}`);
    return setup;
  }
}
