import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventsService } from '../events/events.service';
import { SubscriptionEventsRepository } from './subscription-events.repository';
import { toSubscriptionResponse } from './subscription-response';
import { SubscriptionsRepository } from './subscriptions.repository';

/** Why billing could not make a subscription's due period into a charge, as billing tells it. */
export interface BillingFailure {
  code: string;
  message: string;
}

/**
 * The billing errors of subscriptions (see BillingError), written for SubscriptionLifecycleService, which billing
 * calls: a subscription whose due period a pass cannot bill is recorded and left out, so the pass goes on.
 */
@Injectable()
export class SubscriptionBillingErrorsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly audit: SubscriptionEventsRepository,
    private readonly events: EventsService,
  ) {}

  /**
   * Records on the subscription, locked in the caller's transaction, that a pass failed to bill its due period:
   * the error, the failures in a row and since when, and the real time before which the scheduler's passes leave it
   * alone (`retryAt(failures)`). The trail's `billing_failed` and the merchant's `subscription.updated` come when the
   * error is new or another than the last, not at every retry of the same one. Answers the failures in a row, or
   * null when there is no such subscription.
   */
  async record(em: EntityManager, subscriptionId: string, failure: BillingFailure, now: Date, retryAt: (failures: number) => Date): Promise<number | null> {
    const s = await this.subscriptions.lock(em, subscriptionId);
    if (!s) return null;
    const before = toSubscriptionResponse(s);
    const last = s.billingError;
    const failures = (last?.failures ?? 0) + 1;
    s.billingError = { code: failure.code, message: failure.message, failures, since: last?.since ?? now.toISOString() };
    s.billingRetryAt = retryAt(failures);
    s.updatedAt = now;
    await this.subscriptions.save(em, s);
    if (last?.code === failure.code && last.message === failure.message) return failures;
    await this.audit.record(em, { subscriptionId: s.id, type: 'billing_failed', data: { ...failure, failures, retryAt: s.billingRetryAt.toISOString() } }, now);
    await this.events.record(em, { type: 'subscription.updated', data: { object: toSubscriptionResponse(s), previous: { billingError: before.billingError } } });
    return failures;
  }
}
