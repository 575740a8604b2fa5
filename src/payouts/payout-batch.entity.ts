import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/** A mass payout: many single payouts accepted together; its counts are read from the payouts themselves. */
@Entity('payout_batches')
@Index('payout_batches_created_idx', ['createdAt', 'seq'])
export class PayoutBatch {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'int' })
  total: number;

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
}
