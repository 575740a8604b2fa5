import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderEvent } from './provider-event.entity';

/** Every statement on `provider_events`. */
@Injectable()
export class ProviderEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores an event, due now; false when it was stored before (a repeat changes nothing). */
  async insertIfNew(event: Pick<ProviderEvent, 'dedupeKey' | 'topic' | 'eventType' | 'objectId' | 'payload'>): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO provider_events (dedupe_key, topic, event_type, object_id, payload, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT ON CONSTRAINT provider_events_dedupe_uq DO NOTHING
       RETURNING id`,
      [event.dedupeKey, event.topic, event.eventType, event.objectId, JSON.stringify(event.payload)],
    );
    return rows.length > 0;
  }

  /** Forgets applied events received more than `days` ago. */
  async pruneApplied(days: number): Promise<number> {
    const [, deleted] = (await this.dataSource.query(
      `DELETE FROM provider_events WHERE applied_at IS NOT NULL AND received_at < now() - make_interval(days => $1)`,
      [days],
    )) as [unknown, number];
    return deleted;
  }

  count(): Promise<number> {
    return this.dataSource.getRepository(ProviderEvent).count();
  }
}
