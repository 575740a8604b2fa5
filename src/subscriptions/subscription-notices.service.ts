import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { NewEvent } from '../events/event-types';
import { EventsService } from '../events/events.service';
import { PlansService } from '../plans/plans.service';
import { NoticeKind } from './subscription-notice.entity';
import { SubscriptionNoticesRepository } from './subscription-notices.repository';
import { toSubscriptionResponse } from './subscription-response';
import { upcomingCharge } from './upcoming-charge';

const DAY_MS = 86_400_000;
/** Visa asks for a reminder at least 7 days before a trial turns paid. */
export const TRIAL_ENDING_DAYS = 7;
const BATCH = 500;

/**
 * Notices before money moves: `subscription.renewal_upcoming` BILLING_UPCOMING_DAYS before a renewal and
 * `subscription.trial_ending` 7 days before a trial turns paid. Each is claimed by a unique key (subscription, kind,
 * instant) in the transaction that records its event, so it goes out once whatever the replicas and restarts.
 */
@Injectable()
export class SubscriptionNoticesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notices: SubscriptionNoticesRepository,
    private readonly plans: PlansService,
    private readonly events: EventsService,
    private readonly config: AppConfig,
  ) {}

  /** Sends every notice due at `now`; answers how many went out. */
  async sendDue(now: Date): Promise<number> {
    let sent = 0;
    if (this.config.upcomingDays > 0) sent += await this.sendKind('renewal_upcoming', now, this.config.upcomingDays * DAY_MS);
    sent += await this.sendKind('trial_ending', now, TRIAL_ENDING_DAYS * DAY_MS);
    return sent;
  }

  private async sendKind(kind: NoticeKind, now: Date, leadMs: number): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await this.dataSource.transaction(async (em) => {
        const ids = await this.notices.claimDue(em, kind, now, leadMs, BATCH);
        // Most passes find none: no reads for them.
        if (ids.length === 0) return 0;
        const subscriptions = await this.notices.subscriptions(em, ids);
        const planIds = subscriptions.flatMap((s) => (s.pendingChange ? [s.planId, s.pendingChange.planId] : [s.planId]));
        const plans = new Map((await this.plans.getMany([...new Set(planIds)], em)).map((p) => [p.id, p]));
        const events: NewEvent[] = subscriptions.map((s) => {
          const at = kind === 'renewal_upcoming' ? s.nextBillingAt : s.trialEndsAt;
          // The subscription as GET shows it, and what the coming charge will take (quantity and any pending change
          // included) and when.
          const upcoming = { ...upcomingCharge(s, plans), chargeAt: at?.toISOString() ?? null };
          return { type: kind === 'renewal_upcoming' ? 'subscription.renewal_upcoming' : 'subscription.trial_ending', data: { object: toSubscriptionResponse(s), upcoming } };
        });
        await this.events.record(em, events);
        return ids.length;
      });
      sent += claimed;
      if (claimed < BATCH) return sent;
    }
  }
}
