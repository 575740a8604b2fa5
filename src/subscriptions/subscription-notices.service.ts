import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { NewEvent } from '../events/event-types';
import { EventsService } from '../events/events.service';
import { PlansService } from '../plans/plans.service';
import type { NoticeHold } from './notice-hold';
import { NoticeKind } from './subscription-notice.entity';
import { NoticeBatch, NoticeCursor, SubscriptionNoticesRepository } from './subscription-notices.repository';
import { toSubscriptionResponse } from './subscription-response';
import { upcomingCharge } from './upcoming-charge';

const DAY_MS = 86_400_000;
/** Visa asks for a reminder at least 7 days before a trial turns paid. */
export const TRIAL_ENDING_DAYS = 7;
const BATCH = 500;

/** What one decision of the due notices did: how many went out, and how many wait for a hold to lift. */
export interface NoticesDecided {
  sent: number;
  held: number;
}

/**
 * Notices before money moves: `subscription.renewal_upcoming` BILLING_UPCOMING_DAYS before a renewal,
 * `subscription.trial_ending` 7 days before a trial turns paid, and `subscription.discount_ending` BILLING_UPCOMING_DAYS
 * before the first renewal at full price after a coupon's last period. Each is claimed by a unique key (subscription, kind,
 * instant) in the transaction that records its event, so it goes out once whatever the replicas and restarts. A
 * notice is decided only for a subscription nothing may end before it: another module's hold (billing's: a charge due
 * and unsettled, whose decline may apply the dunning final action) leaves it for a later decision.
 */
@Injectable()
export class SubscriptionNoticesService {
  private readonly holds: NoticeHold[] = [];

  constructor(
    private readonly notices: SubscriptionNoticesRepository,
    private readonly plans: PlansService,
    private readonly events: EventsService,
    private readonly config: AppConfig,
  ) {}

  /** Registers a reason to decide a subscription's notices later (see NoticeHold); billing registers its own at start. */
  holdWhile(hold: NoticeHold): void {
    this.holds.push(hold);
  }

  /** Sends every notice due at `now` that no hold keeps back; answers how many went out and how many were held. */
  async sendDue(now: Date): Promise<NoticesDecided> {
    const decided: NoticesDecided = { sent: 0, held: 0 };
    if (this.config.upcomingDays > 0) await this.sendKind('renewal_upcoming', now, this.config.upcomingDays * DAY_MS, decided);
    await this.sendKind('trial_ending', now, TRIAL_ENDING_DAYS * DAY_MS, decided);
    if (this.config.upcomingDays > 0) await this.sendKind('discount_ending', now, this.config.upcomingDays * DAY_MS, decided);
    return decided;
  }

  private async sendKind(kind: NoticeKind, now: Date, leadMs: number, decided: NoticesDecided): Promise<void> {
    let after: NoticeCursor | null = null;
    do {
      const batch: NoticeBatch = await this.notices.transaction(async (em) => {
        const claimed = await this.notices.claimDue(em, kind, now, leadMs, BATCH, this.holds, after);
        // Most passes find none: no reads for them.
        if (claimed.ids.length === 0) return claimed;
        const subscriptions = await this.notices.subscriptions(em, claimed.ids);
        const planIds = subscriptions.flatMap((s) => (s.pendingChange ? [s.planId, s.pendingChange.planId] : [s.planId]));
        const plans = new Map((await this.plans.getMany([...new Set(planIds)], em)).map((p) => [p.id, p]));
        const events: NewEvent[] = subscriptions.map((s) => {
          const at = kind === 'trial_ending' ? s.trialEndsAt : s.nextBillingAt;
          // The subscription as GET shows it, and what the coming charge will take (quantity and any pending change
          // included) and when.
          const upcoming = { ...upcomingCharge(s, plans, at), chargeAt: at?.toISOString() ?? null };
          return { type: `subscription.${kind}` as const, data: { object: toSubscriptionResponse(s), upcoming } };
        });
        await this.events.record(em, events);
        return claimed;
      });
      decided.sent += batch.ids.length;
      decided.held += batch.held;
      after = batch.next;
    } while (after);
  }
}
