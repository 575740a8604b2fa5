import { Injectable } from '@nestjs/common';
import type { Identity, Wallet } from '../../gateway/provider-api.types';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { SandboxStateService } from '../state/sandbox-state.service';
import { IdempotencyService } from './idempotency.service';

export const CURRENCY = /^[A-Z]{3}$/;

/** Wallet API identities and wallets (the merchant's corporate wallet). */
@Injectable()
export class WalletService {
  constructor(
    private readonly store: SandboxStateService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Operation 8. */
  createIdentity(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'Identity');
    const name = params.requireString('name', { min: 1 });
    const provider = params.requireString('provider', { min: 1 });
    const identityClass = params.requireString('class', { min: 1 });
    const metadata = params.optionalRecord('metadata');
    const externalID = params.optionalString('externalID', { min: 1 });

    // The Wallet API compares the whole request body, metadata included.
    const existingID = this.idempotency.existing('createIdentity', externalID, params.raw());
    const existing = existingID !== undefined ? this.store.state.identities.get(existingID) : undefined;
    if (existing) return created(existing);

    const identity: Identity = {
      id: this.store.state.nextSequence('identity'),
      name,
      provider,
      class: identityClass,
      level: 'anonymous',
      isBlocked: false,
      createdAt: new Date().toISOString(),
      ...(externalID !== undefined ? { externalID } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    };
    this.store.state.identities.set(identity.id, identity);
    this.idempotency.remember('createIdentity', externalID, params.raw(), identity.id);
    return created(identity);
  }

  getIdentity(identityID: string): ProviderReply {
    const identity = this.store.state.identities.get(identityID);
    if (!identity) throw ProviderError.wallet404();
    return ok(identity);
  }

  /** Operation 9. */
  createWallet(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'Wallet');
    const name = params.requireString('name', { min: 1 });
    const identityID = params.requireString('identity', { min: 1 });
    const currency = params.requireString('currency', { pattern: CURRENCY });
    const metadata = params.optionalRecord('metadata');
    const externalID = params.optionalString('externalID', { min: 1 });

    const existingID = this.idempotency.existing('createWallet', externalID, params.raw());
    const existing = existingID !== undefined ? this.store.state.wallets.get(existingID) : undefined;
    if (existing) return created(existing);
    if (!this.store.state.identities.has(identityID)) throw ProviderError.wallet422('No such identity');

    const wallet: Wallet = {
      id: this.store.state.nextSequence('wallet'),
      name,
      identity: identityID,
      currency,
      isBlocked: false,
      createdAt: new Date().toISOString(),
      ...(externalID !== undefined ? { externalID } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    };
    this.store.state.wallets.set(wallet.id, wallet);
    this.idempotency.remember('createWallet', externalID, params.raw(), wallet.id);
    return created(wallet);
  }

  getWallet(walletID: string): ProviderReply {
    const wallet = this.store.state.wallets.get(walletID);
    if (!wallet) throw ProviderError.wallet404();
    return ok(wallet);
  }
}
