import { Column, Entity, Generated, Index, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';
import type { Actor } from '../common/auth/actor';
import type { EventData } from './event-types';

/**
 * Something a merchant's back end must react to, recorded in the transaction of the change itself (an outbox):
 * a crash never loses one, a rolled-back change never has one. Append-only; pruned after the retention period.
 */
@Entity('events')
@Index('events_created_idx', ['createdAt', 'seq'])
@Index('events_type_created_idx', ['type', 'createdAt', 'seq'])
export class MerchantEvent {
  /** Time-ordered (UUID v7), so ids sort like the events they name. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Order of recording: events of one transaction share a createdAt millisecond, never a seq. */
  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  @Column({ type: 'varchar', length: 40 })
  type: string;

  /** Real time (never the test clock), millisecond precision like every list cursor. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'jsonb' })
  data: EventData;

  /** Who made the change: a credential of the admin API, the console, or the daemon itself (the default). */
  @Column({ type: 'jsonb', default: () => `'{"type": "system"}'` })
  actor: Actor;
}
