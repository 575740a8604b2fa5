import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { firstRenewalAfterNotice, periodCalendar } from '../common/calendar/billing-calendar';
import { periodAmountWithinLimit } from '../common/money/amount-limits';
import type { NewEvent } from '../events/event-types';
import { EventsService } from '../events/events.service';
import type { Plan } from '../plans/plan.entity';
import { Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionEventsRepository } from './subscription-events.repository';
import { toSubscriptionResponse } from './subscription-response';
import { SubscriptionsRepository } from './subscriptions.repository';

/** Statuses whose next renewals will be charged: the ones a plan migration moves. */
const MOVED_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** One batch of a plan migration: which subscriptions to walk and what to move them to. */
export interface RepricingBatch {
  migrationId: string;
  from: Plan;
  to: Plan;
  noticeDays: number;
  /** The walk's place in creation order: after `afterSeq`, up to `cutoffSeq` (the newest when the migration began). */
  afterSeq: number;
  cutoffSeq: number;
  limit: number;
  now: Date;
}

/** What a batch did: how far it walked, how many it moved and how many it left alone because they had a change of their own. */
export interface RepricingOutcome {
  walked: number;
  lastSeq: number | null;
  scheduled: number;
  skipped: number;
}

/**
 * Plan migrations' side in the subscriptions: each active, trialing or past-due subscription of the old plan gets a
 * pending change to the new one at its first renewal at least the notice ahead, and one
 * `subscription.price_change_upcoming`. One with a change of its own pending (or set to end at its period end) is left
 * alone and counted. A batch is a few statements whatever its size, in the caller's transaction.
 */
@Injectable()
export class SubscriptionRepricingService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly audit: SubscriptionEventsRepository,
    private readonly events: EventsService,
  ) {}

  /** Where the walk of a migration begun now stops: the subscriptions made so far. */
  newestSeq(em: EntityManager): Promise<number> {
    return this.subscriptions.newestSeq(em);
  }

  async scheduleBatch(em: EntityManager, batch: RepricingBatch): Promise<RepricingOutcome> {
    const rows = await this.subscriptions.lockPlanBatch(em, batch.from.id, batch.afterSeq, batch.cutoffSeq, batch.limit);
    const moved: Subscription[] = [];
    let skipped = 0;
    for (const s of rows) {
      if (!MOVED_STATUSES.includes(s.status) || !s.billingAnchor) continue;
      // Left alone: a change of its own, an end at its period end, or more seats than the new plan's price allows.
      if (s.pendingChange || s.cancelAtPeriodEnd || periodAmountWithinLimit(batch.to.amount, s.quantity) === null) {
        skipped++;
        continue;
      }
      const calendar = periodCalendar(s.billingAnchor, s.timezone, batch.from.interval, batch.from.intervalCount);
      const { start } = firstRenewalAfterNotice(calendar, s.nextPeriodIndex, batch.now, batch.noticeDays, s.timezone);
      s.pendingChange = { planId: batch.to.id, quantity: s.quantity, effectiveAt: start.toISOString(), source: 'migration', migrationId: batch.migrationId };
      s.updatedAt = batch.now;
      moved.push(s);
    }
    await this.subscriptions.updatePendingChanges(em, moved, batch.now);
    await this.audit.recordMany(
      em,
      moved.map((s) => ({
        subscriptionId: s.id,
        type: 'change_scheduled',
        data: { source: 'migration', migrationId: batch.migrationId, from: { planId: batch.from.id, quantity: s.quantity }, to: { planId: batch.to.id, quantity: s.quantity }, effectiveAt: s.pendingChange?.effectiveAt },
      })),
      batch.now,
    );
    await this.events.record(em, moved.map((s) => this.notice(s, batch)));
    return { walked: rows.length, lastSeq: rows.length > 0 ? rows[rows.length - 1].seq : null, scheduled: moved.length, skipped };
  }

  /** The one notice a moved subscription gets: the subscription as GET shows it, and the price change. */
  private notice(s: Subscription, batch: RepricingBatch): NewEvent {
    const change = {
      fromAmount: batch.from.amount * s.quantity,
      toAmount: batch.to.amount * s.quantity,
      currency: batch.to.currency,
      effectiveAt: s.pendingChange?.effectiveAt,
    };
    return { type: 'subscription.price_change_upcoming', data: { object: toSubscriptionResponse(s), change } };
  }
}
