import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The one row that says which identity and corporate wallet every payout uses. */
export const PAYOUT_SETUP_ROW_ID = 1;

/** The payout identity and wallet, made once by the daemon or adopted from PAYOUT_IDENTITY_ID / PAYOUT_WALLET_ID. */
@Entity('payout_setup')
export class PayoutSetup {
  /** Always PAYOUT_SETUP_ROW_ID: the primary key makes a second setup row impossible. */
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ type: 'varchar', length: 40 })
  identityId: string;

  @Column({ type: 'varchar', length: 40 })
  walletId: string;

  /** The wallet's currency: every destination and payout must use it. */
  @Column({ type: 'char', length: 3 })
  currency: string;

  /** True when the ids came from the environment rather than from a setup this daemon ran. */
  @Column({ type: 'boolean', default: false })
  adopted: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
