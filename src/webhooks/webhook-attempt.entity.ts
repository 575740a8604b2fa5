import { Column, Entity, Generated, Index, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * One HTTP attempt of a delivery, as the merchant sees it in GET /webhook-endpoints/:id/deliveries. The response
 * body is never kept: at most a short excerpt in `error` for a non-2xx answer.
 */
@Entity('webhook_attempts')
@Index('webhook_attempts_endpoint_idx', ['endpointId', 'createdAt', 'seq'])
@Index('webhook_attempts_created_idx', ['createdAt'])
export class WebhookAttempt {
  /** Time-ordered (UUID v7), so ids sort like the attempts they name. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Order of recording, the tie-break of the list order. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  @Column({ type: 'uuid' })
  deliveryId: string;

  @Column({ type: 'uuid' })
  endpointId: string;

  @Column({ type: 'uuid' })
  eventId: string;

  /** 1 for the first attempt of the delivery. */
  @Column({ type: 'int' })
  number: number;

  @Column({ type: 'varchar', length: 12 })
  status: 'succeeded' | 'failed';

  /** The HTTP status answered; null when none came (timeout, connection refused). */
  @Column({ type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'int' })
  durationMs: number;

  @Column({ type: 'varchar', length: 300, nullable: true })
  error: string | null;

  /** When the delivery tries again after this attempt; null when it does not (success, or given up). */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** Real time the request was sent. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
