import type { MerchantEvent } from './event.entity';

/** What an event is about, in words a person recognises: who, which plan, how much (each null when it does not apply). */
export interface EventAbout {
  customerId: string | null;
  customerName: string | null;
  planId: string | null;
  planName: string | null;
  amount: number | null;
  currency: string | null;
}

/** The ids an event's object names, read from its body: a customer event's object is the customer itself. */
export function referencesOf(event: Pick<MerchantEvent, 'type' | 'data'>): { customerId: string | null; planId: string | null; amount: number | null; currency: string | null } {
  const object = (event.data?.object ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const customerId = event.type.startsWith('customer.') ? text(object.id) : text(object.customerId);
  // A notice before money moves names the coming amount; a charge, refund or payout carries its own.
  const upcoming = (event.data?.upcoming ?? {}) as Record<string, unknown>;
  const money = typeof object.amount === 'number' && typeof object.currency === 'string' ? object : upcoming;
  const amount = typeof money.amount === 'number' ? money.amount : null;
  return { customerId, planId: text(object.planId), amount, currency: amount === null ? null : text(money.currency) };
}
