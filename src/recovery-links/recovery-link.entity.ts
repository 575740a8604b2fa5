import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One recovery link minted for a charge: the link's id is the first half of its token, the second half a MAC the daemon
 * recomputes, so the token itself is never stored. A fresh link for the same charge revokes the earlier ones.
 */
@Entity('recovery_links')
@Index('recovery_links_charge_idx', ['chargeId', 'createdAt'])
// A new card retries the customer's charges that a live link asks them to pay.
@Index('recovery_links_live_customer_idx', ['customerId'], { where: 'revoked_at IS NULL' })
export class RecoveryLink {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  chargeId: string;

  /** The charge's customer, signed into the token with the charge: the page serves this customer only. */
  @Column({ type: 'uuid' })
  customerId: string;

  /** Real time (SystemClock): a link lives RECOVERY_LINK_TTL in real time, whatever the test clock says. */
  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
