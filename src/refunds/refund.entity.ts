import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import type { InvoiceLine } from '../gateway/provider-api.types';
import { LeasedRow } from '../work/leased-row';

/** pending: at (or on its way to) the provider; succeeded and failed are final. A refund to the balance is born succeeded. */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';
export const REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'succeeded', 'failed'];

/** Where the money goes back: the card the charge was paid with (through the provider), or the credit balance. */
export type RefundDestination = 'card' | 'balance';
export const REFUND_DESTINATIONS: readonly RefundDestination[] = ['card', 'balance'];

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent' | 'service_issue' | 'other';
export const REFUND_REASONS: readonly RefundReason[] = ['requested_by_customer', 'duplicate', 'fraudulent', 'service_issue', 'other'];

/**
 * Where the engine is inside a card refund; each step resumes after a crash. `prepare`: the captured payment and the
 * cart that stays paid are not fixed yet; `create`: they are, and the provider's create is sent (and replayed, the very
 * same body) until it answers; `await`: the provider has the refund, its outcome is read; `done`: final.
 */
export type RefundStep = 'prepare' | 'create' | 'await' | 'done';

/**
 * One refund of one succeeded charge, to its card or to the customer's credit balance. A card refund makes at most one
 * provider refund: its externalID is fixed when it is accepted and is the only one ever sent, derived from what the
 * charge is and the refund's number (or its reference), so a database restored to before it meets the provider's
 * refund again and adopts it.
 */
// Claims held by a process: handed back in one statement when it stops.
@Index('refunds_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
// The claim's two scans, each by an index whose predicate is its own.
@Index('refunds_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('refunds_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('refunds')
// A charge's refunds are numbered 1, 2, ... in the order they were accepted; the number is part of the identity.
@Index('refunds_charge_number_uq', ['chargeId', 'number'], { unique: true })
@Index('refunds_external_id_uq', ['externalId'], { unique: true, where: 'external_id IS NOT NULL' })
@Index('refunds_reference_uq', ['reference'], { unique: true, where: 'reference IS NOT NULL' })
// Lists: newest first, optionally by charge or status.
@Index('refunds_created_idx', ['createdAt', 'seq'])
@Index('refunds_charge_idx', ['chargeId', 'createdAt', 'seq'])
@Index('refunds_status_idx', ['status', 'createdAt', 'seq'])
// Provider events name the invoice: its refunds are found through this index.
@Index('refunds_provider_invoice_idx', ['providerInvoiceId'], { where: 'provider_invoice_id IS NOT NULL' })
// The revenue report: succeeded refunds by the time they succeeded.
@Index('refunds_completed_idx', ['completedAt'], { where: "status = 'succeeded'" })
export class Refund extends LeasedRow {
  /** Made by the daemon (or reserved by the request's Idempotency-Key) before the insert. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  chargeId: string;

  @Column({ type: 'uuid' })
  customerId: string;

  /** Its place among the charge's refunds, from 1. */
  @Column({ type: 'int' })
  number: number;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** `to` in the API (a reserved word in SQL). */
  @Column({ type: 'varchar', length: 8 })
  destination: RefundDestination;

  @Column({ type: 'varchar', length: 12 })
  status: RefundStatus;

  @Column({ type: 'varchar', length: 8 })
  step: RefundStep;

  @Column({ type: 'varchar', length: 32, nullable: true })
  reason: RefundReason | null;

  /** The merchant's own unique name for it, or null. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference: string | null;

  /** The provider create's externalID (see refund-identity.ts); null for a refund to the balance, which is never sent. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  externalId: string | null;

  /** The charge's invoice at the provider (null for a charge the credit balance paid whole). */
  @Column({ type: 'varchar', length: 40, nullable: true })
  providerInvoiceId: string | null;

  /** The captured payment refunded, fixed in the `prepare` step. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  providerPaymentId: string | null;

  /** The cart that stays paid after this refund, fixed before the first create (null: none sent) so every replay is the same request. */
  @Column({ type: 'jsonb', nullable: true })
  cart: InvoiceLine[] | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerRefundId: string | null;

  /** Why it failed: the provider's failure code, or the refusal of the create (`rejected:<code>`). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  failureCode: string | null;

  /** Real time at which the engine works it next (refunds have no calendar); null once final. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** Real time before which it is not tried again after a technical failure. */
  @Column({ type: 'timestamptz', nullable: true })
  notBefore: Date | null;

  @Column({ type: 'int', default: 0 })
  technicalFailures: number;

  /** Real time the provider was seen holding the refund: its poll spacing counts from here. */
  @Column({ type: 'timestamptz', nullable: true })
  submittedAt: Date | null;

  /** Business time it became final (the API shows it; the revenue report counts a refund when it succeeded). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  completedAt: Date | null;

  /** Order of insertion: rows sharing a createdAt still list newest first. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /** Business time, millisecond precision (list cursors carry milliseconds). */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Business time of the last write. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
