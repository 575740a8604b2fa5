import { Injectable } from '@nestjs/common';
import type { MerchantEvent } from './event.entity';
import { EventAbout, referencesOf } from './event-about';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Names by id (UUIDs only), read in one statement by the module that owns them (ids it does not know are left out). */
export type NameReader = (ids: string[]) => Promise<Map<string, string>>;

/**
 * Names the customers and plans a page of events is about, for the events list. Every module depends on events, so
 * events cannot read customers or plans itself: their modules register a reader over their own table at start-up (as
 * webhooks register their fan-out), and a page costs one read per kind, whatever its length.
 */
@Injectable()
export class EventNamesService {
  private readonly readers: Partial<Record<'customer' | 'plan', NameReader>> = {};

  register(kind: 'customer' | 'plan', reader: NameReader): void {
    this.readers[kind] = reader;
  }

  async aboutAll(events: Pick<MerchantEvent, 'type' | 'data'>[]): Promise<EventAbout[]> {
    const references = events.map(referencesOf);
    // An event body is the daemon's own, but a reader casts to uuid: anything else is never asked for.
    const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null && UUID.test(id)))];
    const read = async (kind: 'customer' | 'plan', ids: string[]) => (ids.length > 0 && this.readers[kind] ? this.readers[kind](ids) : new Map<string, string>());
    const [customers, plans] = await Promise.all([read('customer', unique(references.map((r) => r.customerId))), read('plan', unique(references.map((r) => r.planId)))]);
    return references.map((r) => ({
      customerId: r.customerId,
      customerName: r.customerId === null ? null : (customers.get(r.customerId) ?? null),
      planId: r.planId,
      planName: r.planId === null ? null : (plans.get(r.planId) ?? null),
      amount: r.amount,
      currency: r.currency,
    }));
  }
}
