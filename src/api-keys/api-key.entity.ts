import { Column, CreateDateColumn, Entity, Generated, Index, PrimaryColumn } from 'typeorm';
import type { Actor } from '../common/auth/actor';
import { BIGINT_NUMBER } from '../database/bigint-number.transformer';

/**
 * A credential for the admin API with a set of scopes. The key itself (`bk_` and 32 random bytes) is shown once,
 * when it is made; only its SHA-256 is kept (a key that random cannot be found from its hash by guessing).
 */
@Entity('api_keys')
@Index('api_keys_created_idx', ['createdAt', 'seq'])
@Index('api_keys_hash_idx', ['keyHash'], { unique: true })
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 40, array: true })
  scopes: string[];

  /** Hex SHA-256 of the key. */
  @Column({ type: 'char', length: 64 })
  keyHash: string;

  /** Who made it. */
  @Column({ type: 'jsonb' })
  createdBy: Actor;

  /** Real time (a key is no business event); null: never expires. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  expiresAt: Date | null;

  /** Written at most once a minute per key, so a busy key costs no write per request. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  @Generated('increment')
  seq: number;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
