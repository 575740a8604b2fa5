import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * A change waiting for a renewal: the next one (contract v1.2: `effective: period_end`), or, for a plan migration, the
 * first renewal at least its notice ahead. It applies at the renewal that starts at `effectiveAt`.
 */
export interface PendingChange {
  planId: string;
  quantity: number;
  effectiveAt: string;
  /** `migration`: scheduled by the plan migration `migrationId`; absent (or `change`): asked for on the subscription. */
  source?: 'change' | 'migration';
  migrationId?: string;
}

/** Whether the pending change applies at the renewal starting at `renewalAt` (a migration's may wait for a later one). */
export function pendingChangeAppliesAt(pending: PendingChange | null, renewalAt: Date | null): pending is PendingChange {
  return pending !== null && renewalAt !== null && Date.parse(pending.effectiveAt) <= renewalAt.getTime();
}

/**
 * The coupon applied to a subscription, as it was when applied (a coupon archived later leaves it as it is).
 * `periodsLeft`: period charges it still covers (null: forever); a billing pass counts one down in the transaction that
 * makes the period's charge, and the discount goes away after its last one.
 */
export interface SubscriptionDiscount {
  couponId: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** The currency of `amountOff` (null for a percentage). */
  currency: string | null;
  /** The plans the coupon applies to (null: all): a change of plan keeps the discount only where it still applies. */
  appliesToPlans: string[] | null;
  periodsLeft: number | null;
}

/** Whether a discount still applies on `plan` (a change of plan keeps it only then). */
export function discountAppliesTo(discount: SubscriptionDiscount, plan: { id: string; currency: string }): boolean {
  if (discount.appliesToPlans !== null && !discount.appliesToPlans.includes(plan.id)) return false;
  return discount.currency === null || discount.currency === plan.currency;
}

/** What a `discount_applied` audit event holds: the revenue report values MRR net of it from the trail. */
export function discountTerms(d: SubscriptionDiscount) {
  return { couponId: d.couponId, code: d.code, percentOff: d.percentOff, amountOff: d.amountOff, periodsLeft: d.periodsLeft };
}

/** A discount after one more period charge it covered: gone after its last (`forever` never ends). */
export function countedDown(discount: SubscriptionDiscount | null): SubscriptionDiscount | null {
  if (!discount || discount.periodsLeft === null) return discount;
  return discount.periodsLeft > 1 ? { ...discount, periodsLeft: discount.periodsLeft - 1 } : null;
}

/**
 * Why billing passes could not make the subscription's due period into a charge (a row the database refuses, an
 * amount past the limit): the subscription is left out of the pass instead of failing it, and tried again.
 */
export interface BillingError {
  /** `amount_over_limit`, `database_refused` or `internal_error`. */
  code: string;
  message: string;
  /** Passes that failed on it in a row. */
  failures: number;
  /** The billing clock's time of the first of them. */
  since: string;
}

export type SubscriptionStatus = 'incomplete' | 'trialing' | 'active' | 'past_due' | 'paused' | 'unpaid' | 'canceled';

/** Statuses whose periods keep being billed. */
export const BILLABLE_STATUSES: SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/**
 * A customer on a plan. Periods are derived from `billingAnchor` in `timezone` (period k starts at
 * anchor + k intervals, clamped to month ends), so a late or retried charge never shifts the schedule.
 */
@Entity('subscriptions')
// Lists: newest first, optionally by customer, plan or status.
@Index('subscriptions_created_idx', ['createdAt', 'seq'])
@Index('subscriptions_customer_idx', ['customerId', 'createdAt', 'seq'])
@Index('subscriptions_plan_idx', ['planId', 'createdAt', 'seq'])
@Index('subscriptions_status_idx', ['status', 'createdAt', 'seq'])
// A plan migration walks the plan's subscriptions in creation order, a batch at a time.
@Index('subscriptions_plan_seq_idx', ['planId', 'seq'])
// The billing pass finds due subscriptions through this index, never by scanning all rows.
@Index('subscriptions_due_idx', ['nextBillingAt'], { where: "next_billing_at IS NOT NULL AND status IN ('trialing', 'active', 'past_due')" })
// The gauge of subscriptions in billing error counts them without a scan.
@Index('subscriptions_billing_error_idx', ['status'], { where: 'billing_error IS NOT NULL' })
// Incomplete subscriptions are activated when their customer becomes ready.
@Index('subscriptions_incomplete_idx', ['customerId'], { where: "status = 'incomplete'" })
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'uuid' })
  planId: string;

  /** Seats: every plan line's quantity is multiplied by it, and the charge amount is the plan amount × quantity. */
  @Column({ type: 'int', default: 1 })
  quantity: number;

  /** A change to apply at the next renewal, or null. */
  @Column({ type: 'jsonb', nullable: true })
  pendingChange: PendingChange | null;

  @Column({ type: 'varchar', length: 12 })
  status: SubscriptionStatus;

  /** IANA zone in which calendar periods are computed. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ type: 'timestamptz' })
  startAt: Date;

  /** Start of period 0 (after any trial). Null while incomplete: it is fixed when the customer becomes ready. */
  @Column({ type: 'timestamptz', nullable: true })
  billingAnchor: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  trialEndsAt: Date | null;

  /** Index of the next period to bill (0-based from billingAnchor). */
  @Column({ type: 'int', default: 0 })
  nextPeriodIndex: number;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodStart: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  /** When the next period is due; null when nothing is scheduled (incomplete, paused, ended). */
  @Column({ type: 'timestamptz', nullable: true })
  nextBillingAt: Date | null;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  canceledAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  pausedAt: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  /** The coupon in force, or null. Written only by this module (apply, remove, the count of periods, a change of plan). */
  @Column({ type: 'jsonb', nullable: true })
  discount: SubscriptionDiscount | null;

  /** Set while passes fail to bill the due period; null again once one bills it. */
  @Column({ type: 'jsonb', nullable: true })
  billingError: BillingError | null;

  /** Real time (a backoff) before which the scheduler's passes leave a subscription in billing error alone. */
  @Column({ type: 'timestamptz', nullable: true })
  billingRetryAt: Date | null;

  /** Order of insertion: rows that share a createdAt (a test clock standing still, one batch) still list newest first. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /**
   * Business time (the Clock, so the test clock too), set by the service: the API shows it. Millisecond precision:
   * list cursors carry milliseconds, so rows never fall between pages.
   */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Business time of the last change; set by every write (never bumped by the database, which knows only real time). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
