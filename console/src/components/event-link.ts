import type { MerchantEvent } from '../api/types';

const OBJECT_PAGES: Record<string, string> = { customer: '/customers', subscription: '/subscriptions', charge: '/charges', payout: '/payouts' };

/** The console page of the object an event is about: `subscription.canceled` → /subscriptions/<id>. */
export function objectLink(event: Pick<MerchantEvent, 'type' | 'data'>): string | null {
  const id = (event.data.object as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return null;
  const base = OBJECT_PAGES[event.type.split('.')[0]];
  return base ? `${base}/${id}` : null;
}
