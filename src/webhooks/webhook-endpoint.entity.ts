import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * A merchant URL that receives events. The signing secret is kept only encrypted (AES-256-GCM under a key derived
 * from SECRETS_KEY), bound to the endpoint's id, and shown in clear once: when it is made.
 */
@Entity('webhook_endpoints')
@Index('webhook_endpoints_created_idx', ['createdAt', 'seq'])
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Event types sent here; `*` alone means every type. */
  @Column({ type: 'varchar', length: 40, array: true })
  events: string[];

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'text' })
  secretCiphertext: string;

  /** The secret before the last rotation: deliveries are signed with both until it expires. */
  @Column({ type: 'text', nullable: true })
  previousSecretCiphertext: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** Failed attempts since the last success, whichever process made them. */
  @Column({ type: 'int', default: 0 })
  consecutiveFailures: number;

  /** Order of insertion, the tie-break of the list order. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  // Real time (an endpoint is no business event), millisecond precision: list cursors carry milliseconds.
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
