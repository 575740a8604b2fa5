import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The first answer to a POST with an Idempotency-Key, replayed for repeats with the same body. */
@Entity('idempotency_records')
export class IdempotencyRecord {
  /** sha256 of method, route template, path parameters and key (see idempotency-scope.ts). */
  @PrimaryColumn({ type: 'char', length: 64 })
  scopeHash: string;

  /** SHA-256 of the canonical body, card secrets left out: a repeat with another body is refused with 409. */
  @Column({ type: 'char', length: 64 })
  bodyHash: string;

  /** Null while the first request is still being handled. */
  @Column({ type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody: unknown;

  /** The id reserved for what the request creates (reserved-id.decorator.ts); null on records older than it. */
  @Column({ type: 'uuid', nullable: true })
  resourceId: string | null;

  /** True when the first request ended in a server error with its outcome open: a retry may take the key at once. */
  @Column({ type: 'boolean', default: false })
  released: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
