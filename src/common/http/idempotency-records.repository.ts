import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';

/** Every statement on `idempotency_records`. */
@Injectable()
export class IdempotencyRecordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the key for a first request and answers the resource id its record keeps, or null when a record already
   * answers for the key (or another request holds it). A first request that died unanswered more than five minutes
   * ago, or whose outcome was left open by an error, is taken over with the same body; the record keeps the id it
   * reserved the first time, so the re-run meets whatever the first run made.
   */
  async claim(scopeHash: string, bodyHash: string): Promise<string | null> {
    const rows: { resource_id: string }[] = await this.dataSource.query(
      `INSERT INTO idempotency_records (scope_hash, body_hash, resource_id) VALUES ($1, $2, $3)
       ON CONFLICT (scope_hash) DO UPDATE SET created_at = now(), released = false,
              resource_id = COALESCE(idempotency_records.resource_id, EXCLUDED.resource_id)
        WHERE idempotency_records.status_code IS NULL AND idempotency_records.body_hash = EXCLUDED.body_hash
          AND (idempotency_records.released OR idempotency_records.created_at < now() - interval '5 minutes')
       RETURNING resource_id`,
      [scopeHash, bodyHash, randomUUID()],
    );
    return rows[0]?.resource_id ?? null;
  }

  async recordAnswer(scopeHash: string, statusCode: number, responseBody: unknown): Promise<void> {
    await this.dataSource.query('UPDATE idempotency_records SET status_code = $2, response_body = $3 WHERE scope_hash = $1', [
      scopeHash,
      statusCode,
      JSON.stringify(responseBody),
    ]);
  }

  /**
   * A first request that failed in a way that may have left its effect behind (a server error, a lost answer
   * write) keeps its record, unanswered and free to be taken at once by a retry with the same body.
   */
  async release(scopeHash: string): Promise<void> {
    await this.dataSource.query('UPDATE idempotency_records SET released = true WHERE scope_hash = $1 AND status_code IS NULL', [scopeHash]);
  }

  /** A first request refused (4xx: nothing was done) leaves no record: it can be retried as it was, or corrected. */
  async forget(scopeHash: string): Promise<void> {
    await this.dataSource.getRepository(IdempotencyRecord).delete({ scopeHash });
  }

  find(scopeHash: string): Promise<IdempotencyRecord | null> {
    return this.dataSource.getRepository(IdempotencyRecord).findOneBy({ scopeHash });
  }

  /** Deletes records older than `days`; answers how many. */
  async pruneOlderThan(days: number): Promise<number> {
    const [, deleted] = (await this.dataSource.query(`DELETE FROM idempotency_records WHERE created_at < now() - make_interval(days => $1)`, [days])) as [
      unknown,
      number,
    ];
    return deleted;
  }
}
