import { Injectable, OnModuleInit } from '@nestjs/common';
import { CardExpiryFlagsService } from '../customers/card-expiry-flags.service';
import { isExpiredCardDecline } from '../dunning/decline-codes';
import { ChargeAttemptsRepository } from './charge-attempts.repository';

/**
 * Tells the customers module each customer's newest decline, from this module's charges and attempts. The card is
 * the one the charge was first declined on: a card newly bound is checked for expiry by the provider, so an expired
 * decline later in the same charge's dunning would be on that same card.
 */
@Injectable()
export class ExpiredCardSignal implements OnModuleInit {
  constructor(
    private readonly flags: CardExpiryFlagsService,
    private readonly attempts: ChargeAttemptsRepository,
  ) {}

  onModuleInit(): void {
    this.flags.register(async (customerIds) => {
      const latest = await this.attempts.latestDeclinesOf(customerIds);
      return new Map([...latest].map(([id, d]) => [id, { expiredCard: isExpiredCardDecline(d.errorCode ?? ''), bindingId: d.bindingId }]));
    });
  }
}
