import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import type { LadderPosition } from '../dunning/ladder-position';

/**
 * pending: intent written, payment not (known to be) created; unknown: the create's outcome is unknown
 * and is replayed with the same externalID; processing: the provider has the payment; succeeded/declined: final.
 */
export type AttemptStatus = 'pending' | 'unknown' | 'processing' | 'succeeded' | 'declined';

/** One payment on the charge's invoice. A new attempt (new externalID) exists only after a definite decline. */
@Entity('charge_attempts')
@Unique('charge_attempts_number_uq', ['chargeId', 'number'])
@Unique('charge_attempts_external_id_uq', ['externalId'])
// The revenue report's renewal volume: first attempts by time.
@Index('charge_attempts_first_idx', ['attemptedAt'], { where: 'number = 1' })
export class ChargeAttempt {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  chargeId: string;

  @Column({ type: 'int' })
  number: number;

  @Column({ type: 'varchar', length: 40 })
  externalId: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerPaymentId: string | null;

  @Column({ type: 'varchar', length: 12 })
  status: AttemptStatus;

  /** Provider failure code path, e.g. authorization_failed:insufficient_funds. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  errorCode: string | null;

  /**
   * Asked for by an operator (POST /charges/{id}/retry) while the charge was being dunned: outside the ladder, it
   * never counts toward the declines that end dunning (the card-network cap counts it, as it counts every attempt).
   */
  @Column({ type: 'boolean', default: false })
  manual: boolean;

  /** A manual attempt's ladder position when it was asked for: where a decline of it puts the charge back. */
  @Column({ type: 'jsonb', nullable: true })
  ladderPosition: LadderPosition | null;

  /** Business time of the attempt (used by the dunning ladder and the 15-in-30-days cap). */
  @Column({ type: 'timestamptz' })
  attemptedAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
