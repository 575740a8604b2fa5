import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';

/** Every statement on `idempotency_records`. */
@Injectable()
export class IdempotencyRecordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the key for a first request: true when this request is the first (or takes over a first one that died
   * unanswered more than five minutes ago with the same body), false when a record already answers for the key.
   */
  async claim(scopeHash: string, bodyHash: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_records (scope_hash, body_hash) VALUES ($1, $2)
       ON CONFLICT (scope_hash) DO UPDATE SET created_at = now()
        WHERE idempotency_records.status_code IS NULL AND idempotency_records.body_hash = EXCLUDED.body_hash
          AND idempotency_records.created_at < now() - interval '5 minutes'
       RETURNING scope_hash`,
      [scopeHash, bodyHash],
    );
    return rows.length > 0;
  }

  async recordAnswer(scopeHash: string, statusCode: number, responseBody: unknown): Promise<void> {
    await this.dataSource.query('UPDATE idempotency_records SET status_code = $2, response_body = $3 WHERE scope_hash = $1', [
      scopeHash,
      statusCode,
      JSON.stringify(responseBody),
    ]);
  }

  /** A first request that failed leaves no record: it can be retried as it was. */
  async forget(scopeHash: string): Promise<void> {
    await this.dataSource.getRepository(IdempotencyRecord).delete({ scopeHash });
  }

  find(scopeHash: string): Promise<IdempotencyRecord> {
    return this.dataSource.getRepository(IdempotencyRecord).findOneByOrFail({ scopeHash });
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
