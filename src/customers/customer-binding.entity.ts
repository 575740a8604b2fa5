import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import type { BindingInteraction } from './binding-interaction';

/** `unknown`: the create call's outcome is not known yet; the follower resolves it from the customer's events. */
export type BindingStatus = 'pending' | 'succeeded' | 'failed' | 'unknown';

/** One card binding attempt of a customer, started by us (create-binding) or seen in the provider's events. */
@Entity('customer_bindings')
@Index('customer_bindings_customer_idx', ['customerId', 'createdAt', 'seq'])
export class CustomerBinding {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  customerId: string;

  @Index('customer_bindings_provider_id_uq', { unique: true, where: 'provider_binding_id IS NOT NULL' })
  @Column({ type: 'varchar', length: 40, nullable: true })
  providerBindingId: string | null;

  /** Sent as externalID on create-binding; null for bindings made through the hosted form. */
  @Index('customer_bindings_external_id_uq', { unique: true, where: 'external_id IS NOT NULL' })
  @Column({ type: 'varchar', length: 40, nullable: true })
  externalId: string | null;

  @Column({ type: 'varchar', length: 10 })
  status: BindingStatus;

  @Column({ type: 'varchar', length: 200, nullable: true })
  errorCode: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  cardBin: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  cardLastDigits: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  cardPaymentSystem: string | null;

  /**
   * What the provider asks of the payer (a 3-D Secure redirect) while the binding waits for it; null otherwise,
   * and always once the binding is final. It holds the provider's redirect, never a card detail or a token.
   */
  @Column({ type: 'jsonb', nullable: true })
  interaction: BindingInteraction | null;

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

  /** Business time of the last change the API shows; set by every such write (never bumped by the database). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** Real (database) time of the insert: the follower's poll ladder and the give-up of a binding never started count from here. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  realCreatedAt: Date;
}
