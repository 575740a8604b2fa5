import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * `proration_credit`: unused days of a paid period given back; `applied`: used by a charge; `adjustment`: by hand;
 * `refund`: a charge refunded to the balance.
 */
export type BalanceEntryKind = 'proration_credit' | 'applied' | 'adjustment' | 'refund';

/**
 * One entry of a customer's credit balance in one currency: append-only, never updated or deleted. The balance is
 * the sum of the entries and is never negative. `reference` names what made the entry (a change, a charge) and is
 * unique, so no entry is written twice: a charge's balance is applied once whoever applies it again, and a change's
 * credit whose reference is taken fails the change instead of vanishing.
 */
@Entity('balance_entries')
@Index('balance_entries_customer_idx', ['customerId', 'currency', 'seq'])
@Index('balance_entries_reference_uq', ['reference'], { unique: true })
export class BalanceEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 20 })
  kind: BalanceEntryKind;

  /** Signed, minor units: credits positive, applications negative. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  amount: number;

  /**
   * What made it: `change:<subscription>:<n>` (its n-th change; older entries name the change's instant),
   * `charge:<charge id>` or `refund:<refund id>`; unique.
   */
  @Column({ type: 'varchar', length: 120 })
  reference: string;

  @Column({ type: 'uuid', nullable: true })
  subscriptionId: string | null;

  @Column({ type: 'uuid', nullable: true })
  chargeId: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  /** Business time (the Clock). */
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
