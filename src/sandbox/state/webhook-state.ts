import type { WalletWebhook, Webhook } from '../../gateway/provider-api.types';

/** Which of the provider's two webhook services a registration or a delivery belongs to. */
export type WebhookApi = 'processing' | 'wallet';

/** An RSA key pair that signs deliveries: the public half as the API shows it, the private half as PKCS#8 PEM. */
export interface WebhookKeyPair {
  publicKey: string;
  privateKey: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dropped' | 'dead';

interface DeliveryAttempt {
  at: string;
  /** The receiver's status code; null when no response came (refused, reset, timed out). */
  httpStatus: number | null;
  error?: string;
  durationMs: number;
}

/** One event on its way to one webhook. The body is fixed when the event happens: its bytes are what gets signed. */
export interface WebhookDelivery {
  id: string;
  api: WebhookApi;
  webhookID: string;
  url: string;
  topic: string;
  eventType: string;
  eventID: number | string;
  /** The invoice, customer, withdrawal or destination the event is about. */
  objectID: string;
  body: string;
  createdAt: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt?: string;
  /** Why a delivery was dropped or declared dead. */
  reason?: string;
}

/** The provider keeps one queue per webhook and object: events of one invoice (customer, ...) arrive in order. */
export interface DeliveryQueue {
  key: string;
  api: WebhookApi;
  webhookID: string;
  /** Head first; only pending deliveries. */
  messages: WebhookDelivery[];
}

export interface WebhookSequences {
  webhook: number;
  walletWebhook: number;
  event: number;
  delivery: number;
}

export interface WebhookStateSnapshot {
  processing: [string, Webhook][];
  wallet: [string, WalletWebhook][];
  partyKey?: WebhookKeyPair;
  identityKeys: [string, WebhookKeyPair][];
  queues: [string, DeliveryQueue][];
  sequences: WebhookSequences;
}

/** Webhook registrations, their signing keys and the deliveries still pending: saved with the rest of the state. */
export class WebhookState {
  processing = new Map<string, Webhook>();
  wallet = new Map<string, WalletWebhook>();
  /** The sandbox has one merchant party; the provider keeps one key pair per party for all its processing webhooks. */
  partyKey?: WebhookKeyPair;
  /** Wallet webhooks are signed with one key pair per identity. */
  identityKeys = new Map<string, WebhookKeyPair>();
  queues = new Map<string, DeliveryQueue>();
  sequences: WebhookSequences = { webhook: 0, walletWebhook: 0, event: 0, delivery: 0 };
  /** Deliveries waiting in all queues (derived, not saved). */
  pending = 0;

  next(name: keyof WebhookSequences): number {
    this.sequences[name] += 1;
    return this.sequences[name];
  }

  toSnapshot(): WebhookStateSnapshot {
    return {
      processing: [...this.processing],
      wallet: [...this.wallet],
      ...(this.partyKey ? { partyKey: this.partyKey } : {}),
      identityKeys: [...this.identityKeys],
      queues: [...this.queues],
      sequences: { ...this.sequences },
    };
  }

  /** Tolerates a state file written before webhooks existed. */
  static fromSnapshot(snapshot: WebhookStateSnapshot | undefined): WebhookState {
    const state = new WebhookState();
    if (!snapshot) return state;
    state.processing = new Map(snapshot.processing);
    state.wallet = new Map(snapshot.wallet);
    state.partyKey = snapshot.partyKey;
    state.identityKeys = new Map(snapshot.identityKeys);
    state.queues = new Map(snapshot.queues);
    state.sequences = { ...state.sequences, ...snapshot.sequences };
    for (const queue of state.queues.values()) state.pending += queue.messages.length;
    return state;
  }
}
