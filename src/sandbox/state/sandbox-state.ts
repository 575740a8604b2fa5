import { randomBytes } from 'node:crypto';
import type { Identity, Wallet } from '../../gateway/provider-api.types';
import type {
  AccessTokenRecord,
  BindingChargeRecord,
  BindingRecord,
  CardTokenRecord,
  CustomerRecord,
  DestinationRecord,
  IdempotencyRecord,
  InvoiceRecord,
  PaymentRef,
  PaymentToolRecord,
  SandboxSnapshot,
  SequenceName,
  WithdrawalRecord,
} from './sandbox-records';
import { WebhookState } from './webhook-state';

/** Everything the simulated provider knows. Plain maps: lookups stay O(1) under benchmark load. */
export class SandboxState {
  fingerprintKey = randomBytes(32).toString('hex');
  sequences: Record<SequenceName, number> = { identity: 0, wallet: 0, destination: 0, withdrawal: 0 };
  customers = new Map<string, CustomerRecord>();
  bindings = new Map<string, BindingRecord>();
  invoices = new Map<string, InvoiceRecord>();
  /** Payments in the order they started, for the ledger. */
  paymentOrder: PaymentRef[] = [];
  accessTokens = new Map<string, AccessTokenRecord>();
  paymentTools = new Map<string, PaymentToolRecord>();
  cardTokens = new Map<string, CardTokenRecord>();
  idempotency = new Map<string, IdempotencyRecord>();
  identities = new Map<string, Identity>();
  wallets = new Map<string, Wallet>();
  destinations = new Map<string, DestinationRecord>();
  withdrawals = new Map<string, WithdrawalRecord>();
  bindingCharges: BindingChargeRecord[] = [];
  /** Per customer: outcomes that override the card table for the next payments, first one first. */
  scriptedOutcomes = new Map<string, string[]>();
  webhooks = new WebhookState();

  nextSequence(name: SequenceName): string {
    this.sequences[name] += 1;
    return String(this.sequences[name]);
  }

  toSnapshot(): SandboxSnapshot {
    return {
      version: 1,
      savedAt: new Date().toISOString(),
      fingerprintKey: this.fingerprintKey,
      sequences: { ...this.sequences },
      customers: [...this.customers],
      bindings: [...this.bindings],
      invoices: [...this.invoices],
      paymentOrder: this.paymentOrder,
      accessTokens: [...this.accessTokens],
      paymentTools: [...this.paymentTools],
      cardTokens: [...this.cardTokens],
      idempotency: [...this.idempotency],
      identities: [...this.identities],
      wallets: [...this.wallets],
      destinations: [...this.destinations],
      withdrawals: [...this.withdrawals],
      bindingCharges: this.bindingCharges,
      scriptedOutcomes: [...this.scriptedOutcomes],
      webhooks: this.webhooks.toSnapshot(),
    };
  }

  static fromSnapshot(snapshot: SandboxSnapshot): SandboxState {
    if (snapshot.version !== 1) throw new Error(`unsupported sandbox state version ${String(snapshot.version)}`);
    const state = new SandboxState();
    state.fingerprintKey = snapshot.fingerprintKey;
    state.sequences = { ...state.sequences, ...snapshot.sequences };
    state.customers = new Map(snapshot.customers);
    state.bindings = new Map(snapshot.bindings);
    state.invoices = new Map(snapshot.invoices);
    state.paymentOrder = snapshot.paymentOrder;
    state.accessTokens = new Map(snapshot.accessTokens);
    state.paymentTools = new Map(snapshot.paymentTools);
    state.cardTokens = new Map(snapshot.cardTokens);
    state.idempotency = new Map(snapshot.idempotency);
    state.identities = new Map(snapshot.identities);
    state.wallets = new Map(snapshot.wallets);
    state.destinations = new Map(snapshot.destinations);
    state.withdrawals = new Map(snapshot.withdrawals);
    state.bindingCharges = snapshot.bindingCharges;
    state.scriptedOutcomes = new Map(snapshot.scriptedOutcomes);
    state.webhooks = WebhookState.fromSnapshot(snapshot.webhooks);
    return state;
  }
}
