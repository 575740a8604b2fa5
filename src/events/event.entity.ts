import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { EventData } from './event-types';

/**
 * Something a merchant's back end must react to, recorded in the transaction of the change itself (an outbox):
 * a crash never loses one, a rolled-back change never has one. Append-only; pruned after the retention period.
 */
@Entity('events')
@Index('events_created_idx', ['createdAt', 'id'])
@Index('events_type_created_idx', ['type', 'createdAt', 'id'])
export class MerchantEvent {
  /** Time-ordered (UUID v7): within one millisecond the id keeps the order of recording. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 40 })
  type: string;

  /** Real time (never the test clock), millisecond precision like every list cursor. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'jsonb' })
  data: EventData;
}
