import { Column, Entity, PrimaryColumn } from 'typeorm';

export type NoticeKind = 'renewal_upcoming' | 'trial_ending' | 'discount_ending';

/**
 * A notice sent before money moves: one row per subscription, kind and the instant it warns about (the renewal, or the
 * trial's end). The primary key makes each notice once-only across replicas and restarts.
 */
@Entity('subscription_notices')
export class SubscriptionNotice {
  @PrimaryColumn({ type: 'uuid' })
  subscriptionId: string;

  @PrimaryColumn({ type: 'varchar', length: 20 })
  kind: NoticeKind;

  /** The renewal (nextBillingAt) or the trial's end (trialEndsAt) this notice is about. */
  @PrimaryColumn({ type: 'timestamptz' })
  dueAt: Date;

  /** Business time (the clock) at which it was sent. */
  @Column({ type: 'timestamptz' })
  sentAt: Date;
}
