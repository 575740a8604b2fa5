import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Every statement on `console_sessions`. Expiry is compared with the database's own clock (real time). */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores a new session valid for `seconds`, opened with the API key `apiKeyId` (null: ADMIN_TOKEN); answers when it expires. */
  async insert(keyHash: string, seconds: number, apiKeyId: string | null): Promise<Date> {
    const rows: { expires_at: Date }[] = await this.dataSource.query(
      `INSERT INTO console_sessions (key_hash, expires_at, api_key_id) VALUES ($1, now() + make_interval(secs => $2), $3) RETURNING expires_at`,
      [keyHash, seconds, apiKeyId],
    );
    return rows[0].expires_at;
  }

  /** When the session expires and the key it was opened with, or null when there is no such session or it has expired. */
  async findLive(keyHash: string): Promise<{ expiresAt: Date; apiKeyId: string | null } | null> {
    const rows: { expires_at: Date; api_key_id: string | null }[] = await this.dataSource.query(
      `SELECT expires_at, api_key_id FROM console_sessions WHERE key_hash = $1 AND expires_at > now()`,
      [keyHash],
    );
    return rows[0] ? { expiresAt: rows[0].expires_at, apiKeyId: rows[0].api_key_id } : null;
  }

  async delete(keyHash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM console_sessions WHERE key_hash = $1`, [keyHash]);
  }

  /** Deletes sessions that expired; answers how many. */
  async pruneExpired(): Promise<number> {
    const [, deleted] = (await this.dataSource.query(`DELETE FROM console_sessions WHERE expires_at <= now()`)) as [unknown, number];
    return deleted;
  }
}
