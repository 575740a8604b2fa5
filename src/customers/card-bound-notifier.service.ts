import { Injectable, Logger } from '@nestjs/common';

type CardBoundListener = (customerId: string) => Promise<void>;

/**
 * Tells other modules, after the commit, that a customer's card was bound (the first one, or one replacing a card
 * that was declined). Billing listens so a charge waiting for a new card is tried the moment there is one, not at
 * its next pass; the pass still wakes whatever a listener missed (a crash between the commit and the listener).
 */
@Injectable()
export class CardBoundNotifierService {
  private readonly logger = new Logger(CardBoundNotifierService.name);
  private readonly listeners: CardBoundListener[] = [];

  onCardBound(listener: CardBoundListener): void {
    this.listeners.push(listener);
  }

  notify(customerId: string): void {
    for (const listener of this.listeners) {
      listener(customerId).catch((error: unknown) =>
        this.logger.warn({ err: error, customerId }, 'Could not act on a newly bound card at once; the next billing pass does'),
      );
    }
  }
}
