import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { SystemClock } from '../common/clock/system-clock';
import { Plan } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { DunningService } from '../dunning/dunning.service';
import { PeriodCalendar, periodCalendar } from '../common/calendar/billing-calendar';
import { MAX_AMOUNT, periodAmount } from '../common/money/amount-limits';
import { PendingItem } from '../pending-items/pending-item.entity';
import { PendingItemsService } from '../pending-items/pending-items.service';
import { pendingChangeAppliesAt, Subscription } from '../subscriptions/subscription.entity';
import { DueFilter, StartedPeriod, SubscriptionLifecycleService } from '../subscriptions/subscription-lifecycle.service';
import { backoffDelayMs } from '../work/backoff';
import { WorkTuning } from '../work/work-tuning';
import { describeBillingFailure, isRowFault } from './billing-failure';
import { BillingMetricsService } from './billing-metrics.service';
import { BillingTuning } from './billing-tuning';
import type { NewCharge } from './charge-writes';
import { ChargesRepository } from './charges.repository';
import { invoiceDueAt, invoiceExternalId, invoiceMadeAt } from './external-ids';
import { discountOf } from '../coupons/coupon-discount';
import { CartLine, cartAfterDiscount, MAX_CART_LINES, planCart } from './invoice-cart';

/**
 * Most skipped periods of one subscription recorded as `skipped` charges in one pass: the newest ones, just before
 * the periods charged. Older ones (a test clock moved millennia ahead, a subscription dormant for years) are recorded
 * as a range in the `periods_skipped` audit event and counted by the metric, so the work stays bounded.
 */
export const MAX_SKIPPED_CHARGES_RECORDED = 100;

/** What a pass carries from batch to batch about the subscriptions it could not bill. */
export interface MaterializeScope {
  /** Recorded as failing in this pass: no later batch of it locks them again. Batches add to it. */
  failed: Set<string>;
  /** The admin's pass tries subscriptions in billing backoff at once; the scheduler's leaves them until it ends. */
  retryBackedOff: boolean;
}

export interface BatchResult {
  advanced: number;
  created: number;
}

/** Periods of one subscription skipped beyond the catch-up cap, told once the batch committed. */
interface SkippedPeriods {
  subscriptionId: string;
  count: number;
  recorded: number;
  from: Date;
  to: Date;
}

/**
 * Turns the due periods of subscriptions into charges: one charge per (subscription, period), made unique by the
 * database, and the subscription moved to its next period in the same transaction. A batch of subscriptions
 * costs a handful of statements, whatever its size.
 */
@Injectable()
export class PeriodMaterializerService {
  private readonly logger = new Logger(PeriodMaterializerService.name);

  constructor(
    private readonly charges: ChargesRepository,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly plans: PlansService,
    private readonly dunning: DunningService,
    private readonly tuning: BillingTuning,
    private readonly metrics: BillingMetricsService,
    private readonly realClock: SystemClock,
    private readonly balances: BalancesService,
    private readonly work: WorkTuning,
    private readonly pendingItems: PendingItemsService,
  ) {}

  /**
   * Advances one batch of due subscriptions by one period each (locked with SKIP LOCKED, so replicas share the
   * work), at most `limit` of them. Answers how many subscriptions it took (advanced, or recorded as failing and
   * added to `scope.failed`) and how many charges it made.
   */
  materializeBatch(now: Date, limit: number, scope: MaterializeScope): Promise<BatchResult> {
    const filter: DueFilter = { except: [...scope.failed], ...(scope.retryBackedOff ? {} : { backoffEndedBy: this.realClock.now() }) };
    return this.makeOrIsolate(now, scope, (em) => this.lifecycle.lockDue(em, now, limit, filter));
  }

  /**
   * Makes the periods of the subscriptions `lock` takes. When that fails on what one of them holds (isRowFault: a
   * row the database refuses, an amount past the limit), they are made again in halves, down to the one at fault,
   * which is recorded as failing (SubscriptionLifecycleService.billingFailed) and left out, while every other one is
   * made as usual: one subscription never stops the pass. The common path is the one transaction it always was; a
   * fault costs about two more per halving, and the backoff it records keeps the scheduler from paying it each pass.
   */
  private async makeOrIsolate(now: Date, scope: MaterializeScope, lock: (em: EntityManager) => Promise<Subscription[]>): Promise<BatchResult> {
    const locked: string[] = [];
    try {
      return await this.make(now, lock, locked);
    } catch (error) {
      if (locked.length === 0 || !isRowFault(error)) throw error;
      if (locked.length === 1) {
        await this.recordFailure(now, locked[0], error);
        scope.failed.add(locked[0]);
        return { advanced: 1, created: 0 };
      }
      const result: BatchResult = { advanced: 0, created: 0 };
      const middle = Math.ceil(locked.length / 2);
      for (const half of [locked.slice(0, middle), locked.slice(middle)]) {
        const made = await this.makeOrIsolate(now, scope, (em) => this.lifecycle.lockDue(em, now, half.length, { among: half }));
        result.advanced += made.advanced;
        result.created += made.created;
      }
      return result;
    }
  }

  /** A subscription whose period cannot be made: recorded on it (with a backoff), counted and logged. */
  private async recordFailure(now: Date, subscriptionId: string, error: unknown): Promise<void> {
    const failure = describeBillingFailure(error);
    const retryAt = (failures: number) => new Date(this.realClock.now().getTime() + backoffDelayMs(failures, this.work.backoffMs, this.work.maxBackoffMs));
    const failures = await this.charges.transaction((em) => this.lifecycle.billingFailed(em, subscriptionId, failure, now, retryAt));
    if (failures === null) return;
    this.metrics.failedSubscriptions.inc();
    // The stack says where the daemon's own code failed; a database refusal or an amount is said by its message.
    const stack = failure.code === 'internal_error' && error instanceof Error ? { stack: error.stack } : {};
    this.logger.warn(
      { subscriptionId, ...failure, failures, ...stack },
      `Subscription ${subscriptionId}: its due period could not be made into a charge (${failure.message}); the pass bills the others, and this one is tried again later`,
    );
  }

  /** One transaction over the subscriptions `lock` takes; their ids go to `locked` as soon as they are locked. */
  private async make(now: Date, lock: (em: EntityManager) => Promise<Subscription[]>, locked: string[]): Promise<BatchResult> {
    const skips: SkippedPeriods[] = [];
    const result = await this.charges.transaction(async (em) => {
      const due = await lock(em);
      locked.push(...due.map((s) => s.id));
      if (due.length === 0) return { advanced: 0, created: 0 };
      const planIds = due.flatMap((s) => (s.pendingChange ? [s.planId, s.pendingChange.planId] : [s.planId]));
      const plans = new Map((await this.plans.getMany([...new Set(planIds)], em)).map((p) => [p.id, p]));
      const madeAt = invoiceMadeAt(now, this.realClock.now());
      const charges: NewCharge[] = [];
      const carts: { charge: NewCharge; plan: Plan; quantity: number }[] = [];
      const started: { subscription: Subscription; period: StartedPeriod }[] = [];
      for (const s of due) {
        if (s.cancelAtPeriodEnd) {
          await this.lifecycle.endAtPeriodBoundary(em, s, now);
          continue;
        }
        // A change waiting for this renewal applies first: the renewal is charged at the new plan and quantity (a
        // migration's change may wait for a later renewal).
        if (pendingChangeAppliesAt(s.pendingChange, s.nextBillingAt)) {
          await this.lifecycle.applyPendingChange(em, s, { from: plans.get(s.planId) as Plan, to: plans.get(s.pendingChange.planId) as Plan }, now);
        }
        const plan = plans.get(s.planId) as Plan;
        // Read after the change above: it may have moved the calendar (interval, anchor).
        const calendar = periodCalendar(s.billingAnchor as Date, s.timezone, plan.interval, plan.intervalCount);
        const begun = calendar.begunBy(s.nextPeriodIndex, now);
        if (begun > this.tuning.maxCatchUpPeriods) skips.push(await this.skipMissedPeriods(em, s, plan, begun - this.tuning.maxCatchUpPeriods, now, calendar));
        const charge = { ...this.newCharge(s, plan, s.nextPeriodIndex, 'pending', calendar), nextAttemptAt: now };
        charge.invoiceDueAt = invoiceDueAt(charge.periodStart, madeAt, [this.dunning.policyFor(plan, s.id).windowMs]);
        // The coupon in force is fixed with the charge (amount and cart), so every replay sends the same body.
        if (s.discount) applyDiscount(charge, planCart(plan.lines, s.quantity), discountOf(charge.amount, s.discount));
        charges.push(charge);
        carts.push({ charge, plan, quantity: s.quantity });
        started.push({ subscription: s, period: { index: charge.periodIndex, start: charge.periodStart, end: charge.periodEnd } });
      }
      const carried = await this.carryPendingItems(em, carts);
      const inserted = await this.charges.insertMany(em, charges, now);
      // Billed with the charge that carries them, in its transaction: a crash leaves both or neither.
      await this.pendingItems.markBilled(em, carried.filter((item) => inserted.has(item.chargeId)), now);
      await this.applyBalances(em, charges.filter((c) => inserted.has(c.id)), now);
      started.forEach((entry, i) => {
        // A race may have made the period's charge already: then this pass made none.
        if (!inserted.has(charges[i].id)) return;
        entry.period.charge = { id: charges[i].id, amount: charges[i].amount, discountAmount: charges[i].discountAmount ?? 0 };
        // Counted down in this transaction, with the charge it covered.
        entry.period.discounted = entry.subscription.discount !== null;
      });
      await this.lifecycle.startPeriods(em, started, now);
      return { advanced: due.length, created: inserted.size };
    });
    // Told once committed: a batch made again in halves would tell its skips twice.
    for (const skip of skips) this.reportSkipped(skip);
    return result;
  }

  /**
   * The pending items of the batch's subscriptions (their merchant items and setup fees), locked, go on their new period
   * charges as extra cart lines after the plan's: the charge's amount and cart grow by them and are fixed with it, so
   * its lines sum to its amount and keep every rate. Answers which item each charge carries.
   */
  private async carryPendingItems(em: EntityManager, carts: { charge: NewCharge; plan: Plan; quantity: number }[]): Promise<{ itemId: string; chargeId: string }[]> {
    const pending = await this.pendingItems.lockPendingOf(em, carts.map((c) => c.charge.subscriptionId));
    const carried: { itemId: string; chargeId: string }[] = [];
    for (const { charge, plan, quantity } of carts) {
      const base = charge.lines ?? planCart(plan.lines, quantity);
      const items = itemsThatFit(base, charge, pending.get(charge.subscriptionId) ?? []);
      if (items.length === 0) continue;
      charge.lines = [...base, ...items.flatMap((item) => item.lines)];
      charge.amount += items.reduce((sum, item) => sum + item.amount, 0);
      carried.push(...items.map((item) => ({ itemId: item.id, chargeId: charge.id })));
    }
    return carried;
  }

  /**
   * The credit balance goes to the new charges of customers who hold one, in the transaction that makes them: the
   * `applied` entry is unique per charge, so no replica, restart or retry applies it twice. A charge covered whole
   * is settled here, with no provider call.
   */
  private async applyBalances(em: EntityManager, made: NewCharge[], now: Date): Promise<void> {
    const holders = await this.balances.withBalance(em, made.map((c) => c.customerId));
    for (const c of made) {
      if (!holders.has(c.customerId) || c.amount === 0) continue;
      const paid = await this.balances.applyToCharge(em, c, now);
      if (paid > 0) await this.charges.recordPaidFromBalance(em, c.id, paid, now);
    }
  }

  /**
   * After downtime, the oldest periods beyond the catch-up cap are skipped: never sent to the provider, and never
   * charged later (the subscription moves past them; the unique (subscription, period) holds those recorded). The
   * newest MAX_SKIPPED_CHARGES_RECORDED of them become `skipped` charges; all of them are named as a range in one
   * audit event, counted by the metric and logged, so no backlog is charged in one burst, none is dropped silently,
   * and the work is the same for a month of downtime as for a clock moved to 9999.
   */
  private async skipMissedPeriods(em: EntityManager, s: Subscription, plan: Plan, count: number, now: Date, calendar: PeriodCalendar): Promise<SkippedPeriods> {
    const recorded = Math.min(count, MAX_SKIPPED_CHARGES_RECORDED);
    const firstRecorded = s.nextPeriodIndex + count - recorded;
    const skipped = Array.from({ length: recorded }, (_, k) => this.newCharge(s, plan, firstRecorded + k, 'skipped', calendar));
    await this.charges.insertMany(em, skipped, now);
    const nextIndex = s.nextPeriodIndex + count;
    const periods = skipped.map((c) => ({ chargeId: c.id, start: c.periodStart }));
    const firstStart = calendar.start(s.nextPeriodIndex);
    const nextStart = calendar.start(nextIndex);
    await this.lifecycle.periodsSkipped(em, s, { nextIndex, nextStart, periods, count, firstStart }, now);
    return { subscriptionId: s.id, count, recorded, from: firstStart, to: periods[periods.length - 1].start };
  }

  private reportSkipped({ subscriptionId, count, recorded, from, to }: SkippedPeriods): void {
    this.metrics.skippedPeriods.inc(count);
    this.logger.warn(
      { subscriptionId, skipped: count, recorded, from: from.toISOString(), to: to.toISOString(), cap: this.tuning.maxCatchUpPeriods },
      `Subscription ${subscriptionId}: ${count} missed period(s) beyond the catch-up cap recorded as skipped, not charged`,
    );
  }

  /** The charge of period `index` of `s`, on its calendar. */
  private newCharge(s: Subscription, plan: Plan, index: number, status: 'pending' | 'skipped', calendar: PeriodCalendar): NewCharge {
    const start = calendar.start(index);
    return {
      id: randomUUID(),
      subscriptionId: s.id,
      customerId: s.customerId,
      periodIndex: index,
      periodStart: start,
      periodEnd: calendar.start(index + 1),
      // Exact, or AmountOverLimitError (a subscription made before the limit): then this one is recorded, not charged.
      amount: periodAmount(plan.amount, s.quantity),
      kind: 'period',
      currency: plan.currency,
      status,
      // From the period, not the row: a charge made again for this period (after a restore) meets the same invoice.
      invoiceExternalId: invoiceExternalId(s.id, start),
      invoiceDueAt: null,
      nextAttemptAt: null,
    };
  }
}

/**
 * A period charge with its coupon's `discount` off the plan's part: `amount` net of it, and the cart the plan's lines
 * less the discount (spread by cartAfterDiscount; none left when the discount is the whole amount: the charge then
 * succeeds with no provider call, unless pending items it carries make a cart of their own).
 */
export function applyDiscount(charge: NewCharge, planLines: CartLine[], discount: number): void {
  charge.discountAmount = discount;
  if (discount === 0) return;
  charge.amount -= discount;
  charge.lines = charge.amount > 0 ? cartAfterDiscount(planLines, discount) : [];
}

/**
 * The pending items (oldest first) a period charge carries: as many as keep its cart within the provider's lines and
 * its amount within MAX_AMOUNT. The first that does not fit waits, with those after it, for the next renewal (a plan
 * changed to a larger one since the item was accepted); an item of another currency never fits.
 */
export function itemsThatFit(planLines: readonly CartLine[], charge: Pick<NewCharge, 'amount' | 'currency'>, items: readonly PendingItem[]): PendingItem[] {
  const taken: PendingItem[] = [];
  let lines = planLines.length;
  let amount = charge.amount;
  for (const item of items) {
    if (item.currency !== charge.currency || lines + item.lines.length > MAX_CART_LINES || amount + item.amount > MAX_AMOUNT) break;
    taken.push(item);
    lines += item.lines.length;
    amount += item.amount;
  }
  return taken;
}
