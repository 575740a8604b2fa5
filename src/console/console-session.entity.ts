import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed-in operator console, opened with ADMIN_TOKEN or an API key. The browser holds a random session id in an HttpOnly cookie; this table holds only
 * an HMAC of that id keyed by the admin token, so neither the token nor a usable session id is ever stored, and
 * changing ADMIN_TOKEN ends every session at once (no stored key matches any more).
 */
@Entity('console_sessions')
@Index('console_sessions_expires_idx', ['expiresAt'])
export class ConsoleSession {
  /** Hex HMAC-SHA256 of the session id. */
  @PrimaryColumn({ type: 'char', length: 64 })
  keyHash: string;

  /** Real time (never the test clock): moving the billing clock must not sign anyone out or in. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** The API key it was opened with (its scopes, and it ends when the key does); null: opened with ADMIN_TOKEN. */
  @Column({ type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
