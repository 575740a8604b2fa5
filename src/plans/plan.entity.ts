import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

export type PlanInterval = 'day' | 'week' | 'month' | 'year';
export type PlanStatus = 'active' | 'archived';
/** A VAT rate as the provider's cart takes it, `22%` or `22/122` (src/common/tax-rates.ts). */
export type TaxRate = string;

export interface PlanLine {
  product: string;
  price: number;
  quantity: number;
  taxRate?: TaxRate;
}

export interface PlanDunning {
  /** Absent (plans made before strategies): `fixed` with `retryDelays`. */
  strategy?: 'fixed' | 'smart';
  /** Fixed only: durations such as `1d`, `12h`, each counted from the previous attempt; absent, DUNNING_RETRY_DELAYS. */
  retryDelays?: string[];
  /** Smart only: the end of dunning, in days after the first decline (default 21). */
  maxDays?: number;
  finalAction: 'cancel' | 'unpaid';
}

/** A price list entry. Prices, lines, currency and interval never change: a new price is a new plan. */
@Entity('plans')
// Lists: newest first, optionally by status.
@Index('plans_created_idx', ['createdAt', 'seq'])
@Index('plans_status_idx', ['status', 'createdAt', 'seq'])
export class Plan {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 100 })
  product: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 5 })
  interval: PlanInterval;

  @Column({ type: 'int' })
  intervalCount: number;

  @Column({ type: 'int' })
  trialDays: number;

  @Column({ type: 'jsonb' })
  lines: PlanLine[];

  /** Sum of price × quantity over the lines, in minor units. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  /** Charged once per subscription (not per seat): on its first paid period's invoice, or at its start with a trial. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER, nullable: true })
  setupFee: number | null;

  /** The setup fee line's VAT rate, as a line's (`22%`, `22/122`); null: no VAT data on it. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  setupFeeTaxRate: TaxRate | null;

  @Column({ type: 'varchar', length: 40 })
  shopId: string;

  /** Null: the environment's ladder (DUNNING_RETRY_DELAYS, DUNNING_FINAL_ACTION) applies. */
  @Column({ type: 'jsonb', nullable: true })
  dunning: PlanDunning | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status: PlanStatus;

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
