import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LeasedRow } from '../work/leased-row';

export type ProviderWebhookApi = 'processing' | 'wallet';
export type ProviderWebhookTopic = 'InvoicesTopic' | 'CustomersTopic' | 'WithdrawalsTopic' | 'DestinationsTopic';

/**
 * One webhook the daemon keeps registered at the provider, and the public key its deliveries are signed with.
 * The row is its own registration job on the work engine: due at `next_attempt_at` until the provider has it.
 */
// The claim's two scans, each by an index whose predicate is its own: planned right even before the table has statistics.
// The rows this process holds: its heartbeat compares them with the claims it works on.
@Index('provider_webhooks_lease_owner_idx', ['leaseOwner'], { where: 'lease_owner IS NOT NULL' })
@Index('provider_webhooks_claim_free_idx', ['nextAttemptAt'], { where: 'lease_owner IS NULL AND next_attempt_at IS NOT NULL' })
@Index('provider_webhooks_claim_leased_idx', ['nextAttemptAt'], { where: 'lease_owner IS NOT NULL AND next_attempt_at IS NOT NULL' })
@Entity('provider_webhooks')
@Unique('provider_webhooks_scope_uq', ['api', 'topic', 'scopeKey', 'url'])
@Index('provider_webhooks_due_idx', ['nextAttemptAt'], { where: 'next_attempt_at IS NOT NULL' })
export class ProviderWebhook extends LeasedRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 12 })
  api: ProviderWebhookApi;

  @Column({ type: 'varchar', length: 20 })
  topic: ProviderWebhookTopic;

  /** What the webhook is scoped to: the shop (processing), or identity and wallet (wallet). */
  @Column({ type: 'varchar', length: 100 })
  scopeKey: string;

  @Column({ type: 'varchar', length: 1000 })
  url: string;

  /** `registering` until the provider has it (found by listing, or created). */
  @Column({ type: 'varchar', length: 12 })
  status: 'registering' | 'active';

  @Column({ type: 'varchar', length: 40, nullable: true })
  providerWebhookId: string | null;

  /** Standard base64 of the DER SubjectPublicKeyInfo, as the provider answers it: public, kept in clear. */
  @Column({ type: 'text', nullable: true })
  publicKey: string | null;

  /** Real time of the last verified event of this topic: while events arrive, polling slows down. */
  @Column({ type: 'timestamptz', nullable: true })
  lastEventAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'int', default: 0 })
  failures: number;

  @Column({ type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
