import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, paginate } from '../common/http/pagination';
import { WebhookAttempt } from './webhook-attempt.entity';
import type { WebhookDeliveryStatus } from './webhook-delivery.entity';
import type { ListWebhookAttemptsQueryDto } from './dto/list-webhook-attempts-query.dto';

/** One finished HTTP attempt, recorded with the delivery's next state. */
export interface AttemptRecord {
  id: string;
  deliveryId: string;
  fence: number;
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** The wait before the next attempt; null when there is none (success, or the retry window is over). */
  retryInMs: number | null;
  sentAt: Date;
}

const PRUNE_CHUNK = 5_000;

/** Every statement on the `webhook_deliveries` and `webhook_attempts` tables. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A CTE that makes one delivery, due now, for every enabled endpoint subscribed to each event the CTE `eventsCte`
   * inserted: it runs inside the producer's statement, so an event and its deliveries commit together.
   */
  fanOutCte(eventsCte: string): string {
    return `webhook_fan_out AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
      SELECT e.id, w.id, now() FROM ${eventsCte} e
        JOIN webhook_endpoints w ON w.enabled AND w.events && ARRAY['*', e.type]::varchar[])`;
  }

  /**
   * A delivery of one event, due now, to `endpointId`, or (null) to every enabled endpoint subscribed to its type;
   * an endpoint that has a copy of it queued and not tried yet gets none more, and that copy is answered instead.
   * Redeliveries of one event take a lock in turn, so repeats at the same moment queue one copy, not one each.
   */
  async redeliver(eventId: string, eventType: string, endpointId: string | null): Promise<{ id: string; endpoint_id: string }[]> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_deliveries:redeliver:' || $1, 15))`, [eventId]);
      return em.query(
        `WITH targets AS (SELECT w.id FROM webhook_endpoints w
                           WHERE CASE WHEN $3::uuid IS NULL THEN w.enabled AND w.events && ARRAY['*', $2::varchar]::varchar[] ELSE w.id = $3::uuid END),
              queued AS (SELECT d.id, d.endpoint_id FROM webhook_deliveries d JOIN targets t ON t.id = d.endpoint_id
                          WHERE d.event_id = $1 AND d.status = 'pending' AND d.attempt_count = 0),
              made AS (INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
                       SELECT $1, t.id, now() FROM targets t WHERE t.id NOT IN (SELECT endpoint_id FROM queued)
                       RETURNING id, endpoint_id)
         SELECT id, endpoint_id FROM made UNION ALL SELECT id, endpoint_id FROM queued`,
        [eventId, eventType, endpointId],
      );
    });
  }

  /**
   * Records one attempt and the delivery's next state in one statement, only under `fence`, and counts the
   * endpoint's consecutive failures. Answers that count, or undefined when the fence no longer held.
   */
  async recordAttempt(record: AttemptRecord): Promise<number | undefined> {
    const status: WebhookDeliveryStatus = record.ok ? 'succeeded' : record.retryInMs === null ? 'failed' : 'pending';
    const [row]: { held: number; failures: number | null }[] = await this.dataSource.query(
      `WITH d AS (UPDATE webhook_deliveries
                     SET status = $3::varchar, attempt_count = attempt_count + 1, lease_owner = NULL, updated_at = now(),
                         next_attempt_at = CASE WHEN $4::float8 IS NULL THEN NULL ELSE now() + $4::float8 * interval '1 millisecond' END
                   WHERE id = $1 AND fence = $2
                   RETURNING id, endpoint_id, event_id, attempt_count, next_attempt_at),
            a AS (INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, event_id, number, status, response_status, duration_ms, error, next_attempt_at, created_at)
                  SELECT $5::uuid, d.id, d.endpoint_id, d.event_id, d.attempt_count, $6::varchar, $7::int, $8::int, $9::varchar, d.next_attempt_at, $10::timestamptz FROM d),
            w AS (UPDATE webhook_endpoints SET consecutive_failures = CASE WHEN $6::varchar = 'succeeded' THEN 0 ELSE consecutive_failures + 1 END
                   WHERE id = (SELECT endpoint_id FROM d)
                   RETURNING consecutive_failures)
       SELECT (SELECT count(*) FROM d)::int AS held, (SELECT consecutive_failures FROM w) AS failures`,
      [
        record.deliveryId,
        record.fence,
        status,
        record.retryInMs,
        record.id,
        record.ok ? 'succeeded' : 'failed',
        record.responseStatus,
        record.durationMs,
        record.error,
        record.sentAt,
      ],
    );
    return row.held > 0 ? (row.failures ?? 0) : undefined;
  }

  /** The attempts made to one endpoint, newest first. */
  attempts(endpointId: string, query: ListWebhookAttemptsQueryDto): Promise<Page<WebhookAttempt>> {
    const qb = this.dataSource.getRepository(WebhookAttempt).createQueryBuilder('attempt').where('attempt.endpointId = :endpointId', { endpointId });
    if (query.eventId) qb.andWhere('attempt.eventId = :eventId', { eventId: query.eventId });
    if (query.status) qb.andWhere('attempt.status = :status', { status: query.status });
    return paginate(qb, query);
  }

  /** Deletes attempts and finished deliveries made before `before`, a chunk at a time; answers how many rows. */
  async pruneBefore(before: Date): Promise<number> {
    let total = 0;
    for (const sql of [
      `DELETE FROM webhook_attempts WHERE id IN (SELECT id FROM webhook_attempts WHERE created_at < $1 LIMIT ${PRUNE_CHUNK})`,
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1 AND next_attempt_at IS NULL LIMIT ${PRUNE_CHUNK})`,
    ]) {
      for (;;) {
        const [, deleted] = (await this.dataSource.query(sql, [before])) as [unknown, number];
        total += deleted;
        if (deleted < PRUNE_CHUNK) break;
      }
    }
    return total;
  }
}
