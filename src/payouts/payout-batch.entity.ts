import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A mass payout: many single payouts accepted together; its counts are read from the payouts themselves. */
@Entity('payout_batches')
export class PayoutBatch {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'int' })
  total: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
