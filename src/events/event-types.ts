/** Every event a merchant can receive (the contract's table); the webhook `events` filter names these or `*`. */
export const EVENT_TYPES = [
  'customer.ready',
  'customer.binding_failed',
  'subscription.created',
  'subscription.updated',
  'subscription.canceled',
  'subscription.renewal_upcoming',
  'subscription.trial_ending',
  'subscription.discount_ending',
  'subscription.price_change_upcoming',
  'charge.succeeded',
  'charge.declined',
  'charge.failed',
  'charge.action_required',
  'refund.succeeded',
  'refund.failed',
  'payout.succeeded',
  'payout.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** `object` is the object as its admin GET shows it; `previous` the changed fields' former values; `error` why it failed. */
export interface EventData {
  object: object;
  previous?: Record<string, unknown>;
  error?: Record<string, unknown>;
  /** Notices before money moves: the coming charge (amount, currency, chargeAt). */
  upcoming?: Record<string, unknown>;
  /** A price change scheduled by a plan migration: fromAmount, toAmount, currency, effectiveAt. */
  change?: Record<string, unknown>;
  /** charge.action_required: the recovery link the customer fixes their card with (null when links are off). */
  recoveryUrl?: string | null;
}

/** An event a producer records in the transaction of the change it describes. */
export interface NewEvent {
  type: EventType;
  data: EventData;
}
