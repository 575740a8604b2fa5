import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import type { BankCardToken, PaymentResourceResult } from '../../gateway/provider-api.types';
import { isExpired, luhnValid, maskCardNumber, parseExpDate, paymentSystemOf } from '../cards/card-checks';
import { cardGroupOf } from '../cards/card-outcomes';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ProviderReply } from '../http/provider-reply';
import { opaqueToken } from '../state/ids';
import type { CardProfile, CardTokenRecord, PaymentToolRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { IdempotencyService } from './idempotency.service';

/** Payment tool tokens (CAPI) and card tokens (payres) are valid 64 minutes, as the provider's default. */
const CARD_TOKEN_LIFETIME_MS = 64 * 60 * 1000;
/** Expired tokens are forgotten a day later, so long benchmarks do not grow the vault without end. */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY = 1000;

const CARD_NUMBER = /^\d{12,19}$/;
const EXP_DATE = /^\d{2}\/(\d{2}|\d{4})$/;
const CVV = /^\d{3,4}$/;

export interface CardInput {
  cardNumber: string;
  expDate: string;
  cvv?: string;
  cardHolder?: string;
}

type CardProblem = 'checksum' | 'expiry' | 'issuer';

/**
 * The token vault. A card number is classified (network, test-bank row, keyed fingerprint) and then
 * dropped: tokens map to that profile only, and CVVs are checked for shape and never stored.
 */
@Injectable()
export class CardVaultService {
  private issuedSincePrune = 0;

  constructor(
    private readonly store: SandboxStateService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** Operation 7: POST /v2/processing/payment-resources. */
  createPaymentResource(body: unknown, clientIp: string): ProviderReply {
    const params = BodyReader.root(body, 'PaymentResourceParams');
    const tool = params.requireObject('paymentTool');
    tool.requireString('paymentToolType', { oneOf: ['CardData'] });
    const input: CardInput = {
      cardNumber: tool.requireString('cardNumber', { pattern: CARD_NUMBER }),
      expDate: tool.requireString('expDate', { pattern: EXP_DATE }),
      cvv: tool.optionalString('cvv', { pattern: CVV }),
      cardHolder: tool.optionalString('cardHolder', { min: 1, max: 100 }),
    };
    const clientInfo = params.requireObject('clientInfo');
    const fingerprint = clientInfo.requireString('fingerprint', { max: 1000 });
    const ip = clientInfo.optionalString('ip', { max: 45 });
    clientInfo.optionalString('url', { max: 1000 });
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });

    const card = this.capiCard(input);
    const features = { card: card.fingerprint, expDate: input.expDate };
    const existingToken = this.idempotency.existing('createPaymentResource', externalID, features);
    const existing = existingToken !== undefined ? this.store.state.paymentTools.get(existingToken) : undefined;
    if (existing) return created(paymentResourceResult(existing));

    const record = this.issuePaymentTool(card, { fingerprint, ip: ip ?? clientIp });
    this.idempotency.remember('createPaymentResource', externalID, features, record.token);
    return created(paymentResourceResult(record));
  }

  /** The hosted form's tokenization: operation 7's card checks, CAPI's error messages. */
  tokenizeCardData(input: CardInput, clientInfo: { fingerprint: string; ip?: string }): PaymentToolRecord {
    if (!CARD_NUMBER.test(input.cardNumber)) throw ProviderError.capi400('invalidRequest', 'Invalid cardNumber length');
    if (!EXP_DATE.test(input.expDate)) throw ProviderError.capi400('invalidRequest', 'Invalid expiration date');
    if (input.cvv !== undefined && !CVV.test(input.cvv)) throw ProviderError.capi400('invalidRequest', 'Invalid cvv length');
    return this.issuePaymentTool(this.capiCard(input), clientInfo);
  }

  /** A payment tool token as the vault knows it, expired or not (callers check expiry). */
  paymentTool(token: string): PaymentToolRecord | undefined {
    return this.store.state.paymentTools.get(token);
  }

  /** POST /payres/v0/bank-cards. */
  tokenizeBankCard(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'BankCard');
    params.optionalString('type', { oneOf: ['BankCard'] });
    const cardNumber = params.requireString('cardNumber', { pattern: CARD_NUMBER });
    const expDate = params.optionalString('expDate', { pattern: EXP_DATE });
    params.optionalString('cardHolder', { min: 1, max: 100 });
    const cvv = params.optionalString('cvv', { pattern: CVV });

    const classified = this.classify(cardNumber, expDate);
    // The Payment Resource API reports bad card data as a business error (422), not a schema one.
    if ('problem' in classified) throw ProviderError.wallet422(classified.problem === 'issuer' ? 'Unsupported card' : 'Card data is invalid');
    const record: CardTokenRecord = { token: opaqueToken(48), card: classified.card, expiresAt: Date.now() + CARD_TOKEN_LIFETIME_MS };
    this.store.state.cardTokens.set(record.token, record);
    this.pruneNow();
    const result: BankCardToken = {
      token: record.token,
      bin: record.card.bin,
      lastDigits: record.card.lastDigits,
      paymentSystem: record.card.paymentSystem,
      validUntil: new Date(record.expiresAt).toISOString(),
      ...(cvv !== undefined ? { authData: opaqueToken(16) } : {}),
    };
    return created(result);
  }

  /** A live payres card token, undefined when unknown or expired. */
  liveCardToken(token: string): CardTokenRecord | undefined {
    const record = this.store.state.cardTokens.get(token);
    return record && record.expiresAt > Date.now() ? record : undefined;
  }

  private issuePaymentTool(card: CardProfile, clientInfo: { fingerprint: string; ip?: string }): PaymentToolRecord {
    const record: PaymentToolRecord = {
      token: opaqueToken(32),
      session: opaqueToken(16),
      card,
      clientInfo,
      expiresAt: Date.now() + CARD_TOKEN_LIFETIME_MS,
    };
    this.store.state.paymentTools.set(record.token, record);
    this.pruneNow();
    return record;
  }

  private capiCard(input: CardInput): CardProfile {
    const classified = this.classify(input.cardNumber, input.expDate);
    if ('card' in classified) return classified.card;
    const message = { checksum: 'Invalid cardNumber checksum', expiry: 'Invalid expiration date', issuer: 'Unrecognized bank card issuer' }[classified.problem];
    throw ProviderError.capi400('invalidRequest', message);
  }

  private classify(pan: string, expDate: string | undefined): { card: CardProfile } | { problem: CardProblem } {
    if (!luhnValid(pan)) return { problem: 'checksum' };
    if (expDate !== undefined) {
      const expiry = parseExpDate(expDate);
      if (!expiry || isExpired(expiry, new Date())) return { problem: 'expiry' };
    }
    const paymentSystem = paymentSystemOf(pan);
    if (!paymentSystem) return { problem: 'issuer' };
    return {
      card: {
        bin: pan.slice(0, 6),
        lastDigits: pan.slice(-4),
        cardNumberMask: maskCardNumber(pan),
        paymentSystem,
        group: cardGroupOf(pan),
        fingerprint: createHmac('sha256', this.store.state.fingerprintKey).update(pan).digest('hex'),
      },
    };
  }

  private pruneNow(): void {
    this.issuedSincePrune += 1;
    if (this.issuedSincePrune < PRUNE_EVERY) return;
    this.issuedSincePrune = 0;
    const cutoff = Date.now() - PRUNE_AFTER_MS;
    const { paymentTools, cardTokens } = this.store.state;
    for (const [token, record] of paymentTools) if (record.expiresAt < cutoff) paymentTools.delete(token);
    for (const [token, record] of cardTokens) if (record.expiresAt < cutoff) cardTokens.delete(token);
  }
}

function paymentResourceResult(record: PaymentToolRecord): PaymentResourceResult {
  const { card } = record;
  return {
    paymentToolToken: record.token,
    paymentSession: record.session,
    paymentToolDetails: {
      detailsType: 'PaymentToolDetailsBankCard',
      bin: card.bin,
      first6: card.bin,
      lastDigits: card.lastDigits,
      last4: card.lastDigits,
      cardNumberMask: card.cardNumberMask,
      paymentSystem: card.paymentSystem,
    },
    clientInfo: { ...record.clientInfo },
    validUntil: new Date(record.expiresAt).toISOString(),
  };
}
