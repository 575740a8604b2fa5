import { Injectable } from '@nestjs/common';
import type { Customer } from './customer.entity';

/** A customer's newest declined charge: whether it was declined for an expired card, and on which card (provider binding id). */
export interface LatestDecline {
  expiredCard: boolean;
  /** The card the charge was declined on; null when not known. */
  bindingId: string | null;
}

/** Each customer's newest declined charge, read in one statement by the module that owns charges. */
export type LatestDeclineReader = (customerIds: string[]) => Promise<Map<string, LatestDecline>>;

/**
 * "Card expired" on a customer: their newest declined charge was declined for an expired card, and that card is still
 * the active one (no new card bound since). Billing depends on customers, so it registers its reader over its own
 * tables at start-up (as the webhooks register their fan-out with events); without billing no customer is flagged.
 */
@Injectable()
export class CardExpiryFlagsService {
  private reader: LatestDeclineReader | null = null;

  register(reader: LatestDeclineReader): void {
    this.reader = reader;
  }

  /** The ids of those of `customers` whose card has expired, in one read for the lot. */
  async expiredCardsOf(customers: Pick<Customer, 'id' | 'activeBindingId'>[]): Promise<Set<string>> {
    const withCard = customers.filter((c) => c.activeBindingId !== null);
    if (!this.reader || withCard.length === 0) return new Set();
    const declines = await this.reader(withCard.map((c) => c.id));
    return new Set(
      withCard
        .filter((c) => {
          const decline = declines.get(c.id);
          return decline !== undefined && decline.expiredCard && decline.bindingId === c.activeBindingId;
        })
        .map((c) => c.id),
    );
  }
}
