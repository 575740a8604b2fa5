import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LeasedRow } from '../work/leased-row';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import type { CartLine } from './invoice-cart';
import type { DunningGroup } from '../dunning/dunning-policy';
import type { LadderPosition } from '../dunning/ladder-position';

/** What recovered a charge whose first attempt was declined. */
export type RecoveredBy = 'retry' | 'card_update' | 'manual_retry' | 'balance';

/**
 * `period`: a billing period's charge; `proration`: the difference owed for a change within a period; `one_off`: money
 * outside the schedule (a merchant's one-off charge, or the setup fee of a subscription with a trial).
 */
export type ChargeKind = 'period' | 'proration' | 'one_off';

/** `skipped`: a period missed beyond the catch-up cap after downtime, never sent to the provider. */
export type ChargeStatus = 'pending' | 'processing' | 'succeeded' | 'retrying' | 'failed' | 'canceled' | 'skipped';

/**
 * Why a charge due by its ladder is not attempted before `nextAttemptAt`: smart dunning's allowed local hours, or the
 * card network's cap on attempts in 30 days.
 */
export type ChargeWait = 'allowed_hours' | 'attempt_cap';

/**
 * Where the engine is inside one charge; each step is resumable after a crash. `await_customer`: a one-off whose
 * customer has no card yet, made due again once the customer is ready.
 */
export type ChargeStep = 'create_invoice' | 'create_payment' | 'await_payment' | 'awaiting_card' | 'await_customer' | 'done';

/**
 * One billing period of one subscription (or one change's proration, or a one-off), charged at most once: a period
 * charge is unique per (subscription, period start), a proration per invoice externalID (its subscription, period and
 * place among the period's changes), so no concurrent run makes a second one, and two changes at one instant (whose
 * prorations share their start, the change's instant) still have one each. A one-off is unique per invoice
 * externalID too (its reference, its reserved id, or its subscription for a setup fee), and per reference.
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('charges_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
@Index('charges_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('charges_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('charges')
@Index('charges_period_uq', ['subscriptionId', 'periodStart'], { unique: true, where: "kind = 'period'" })
@Index('charges_proration_uq', ['invoiceExternalId'], { unique: true, where: "kind = 'proration'" })
@Index('charges_one_off_uq', ['invoiceExternalId'], { unique: true, where: "kind = 'one_off'" })
@Index('charges_reference_uq', ['reference'], { unique: true, where: 'reference IS NOT NULL' })
// Lists: newest first, optionally by subscription, customer or status.
@Index('charges_created_idx', ['createdAt', 'seq'])
@Index('charges_subscription_idx', ['subscriptionId', 'createdAt', 'seq'])
@Index('charges_customer_idx', ['customerId', 'createdAt', 'seq'])
@Index('charges_status_idx', ['status', 'createdAt', 'seq'])
// Claims read this partial index only: finished charges never slow the queue down.
@Index('charges_work_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
// Charges waiting for a new card after a hard decline, found when the customer's active card changes.
// Provider events name the invoice: its charge is found through this index.
@Index('charges_provider_invoice_idx', ['providerInvoiceId'], { where: 'provider_invoice_id IS NOT NULL' })
@Index('charges_awaiting_card_idx', ['customerId'], { where: "step = 'awaiting_card'" })
// One-offs waiting for their customer's first card, found when the customer becomes ready.
@Index('charges_await_customer_idx', ['customerId'], { where: "step = 'await_customer'" })
export class Charge extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Null only for a one-off that names no subscription. */
  @Column({ type: 'uuid', nullable: true })
  subscriptionId: string | null;

  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'int' })
  periodIndex: number;

  @Column({ type: 'timestamptz' })
  periodStart: Date;

  @Column({ type: 'timestamptz' })
  periodEnd: Date;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  @Column({ type: 'varchar', length: 12, default: 'period' })
  kind: ChargeKind;

  /**
   * A proration's one cart line (both plans and `d of D days`); a one-off's invoice description. Fixed with the charge,
   * so replays send the same.
   */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  /**
   * The cart, fixed with the charge so every replay sends the same (before the credit balance, which invoice-cart.ts
   * takes off): a one-off's lines, or a period charge's plan lines with the pending items and setup fee it carries.
   * Null: the plan's lines × the subscription's quantity (or a proration's one line).
   */
  @Column({ type: 'jsonb', nullable: true })
  lines: CartLine[] | null;

  /** A one-off's merchant reference: unique, it names the charge (and derives its invoice externalID) across a restore. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference: string | null;

  /**
   * What the subscription's coupon took off the plan's part of a period charge, fixed with the charge (its `lines` are
   * then the discounted cart); `amount` is already net of it.
   */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER, default: 0 })
  discountAmount: number;

  /** The part of `amount` the customer's credit balance paid; the provider is asked for the rest. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER, default: 0 })
  paidFromBalance: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 12 })
  status: ChargeStatus;

  @Column({ type: 'varchar', length: 16 })
  step: ChargeStep;

  /** externalID of the invoice create: stable for the life of the charge. */
  @Column({ type: 'varchar', length: 40 })
  invoiceExternalId: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerInvoiceId: string | null;

  /** The invoice's dueDate, fixed with the intent before the first create so every replay sends the same body. */
  @Column({ type: 'timestamptz', nullable: true })
  invoiceDueAt: Date | null;

  /** Number of payment attempts that reached a definite outcome (declines and the success). */
  @Column({ type: 'int', default: 0 })
  attemptCount: number;

  /** Business time at which the engine should work on it next; null once nothing is left to do. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /**
   * Why its next attempt waits for `nextAttemptAt` although due before, when a dunning rule moved it there; null once
   * the charge is written again (every fenced write clears it unless it sets it) or an attempt starts.
   */
  @Column({ type: 'varchar', length: 16, nullable: true })
  waitingFor: ChargeWait | null;

  /** Real time before which it is not retried after a technical failure (provider down, network). */
  @Column({ type: 'timestamptz', nullable: true })
  notBefore: Date | null;

  @Column({ type: 'int', default: 0 })
  technicalFailures: number;

  @Column({ type: 'varchar', length: 200, nullable: true })
  lastErrorCode: string | null;

  /** The card binding that was declined hard; collection resumes when the active binding differs. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  declinedBindingId: string | null;

  /**
   * A manual retry asked for and not attempted yet, with where the ladder stood when it was asked; the attempt that
   * carries it out takes it over (and this goes back to null in the same statement).
   */
  @Column({ type: 'jsonb', nullable: true })
  pendingManualRetry: LadderPosition | null;

  /** Business time when dunning started (the first decline); the ladder is counted from the attempts. */
  @Column({ type: 'timestamptz', nullable: true })
  dunningStartedAt: Date | null;

  /** The card declined first: a success on another card is recovered by a card update. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  dunningBindingId: string | null;

  /** The dunning group the charge was collected under once declined (a smart subscription in the holdout: `holdout`). */
  @Column({ type: 'varchar', length: 8, nullable: true })
  dunningStrategy: DunningGroup | null;

  /** What paid a charge whose first attempt was declined; null otherwise. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  recoveredBy: RecoveredBy | null;

  /** Order of insertion: rows that share a createdAt (a test clock standing still, one batch) still list newest first. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  // Millisecond precision: list cursors carry milliseconds, so rows never fall between pages.
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
