import { BeforeApplicationShutdown, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Credential } from '../common/auth/actor';
import { ApiKeyVerifier } from '../common/auth/api-key-verifier';
import { scopesGrant } from '../common/auth/scopes';
import { SystemClock } from '../common/clock/system-clock';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { ApiKey } from './api-key.entity';
import { API_KEY_PATTERN, apiKeyHash, newApiKeySecret } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

/**
 * How long a replica trusts what it read of a key. Revocation reaches every replica within this time (the replica
 * that revokes forgets the key at once); a request in between costs no read.
 */
export const API_KEY_CACHE_MS = 500;

/** Most keys one replica remembers; past it the memory starts afresh. */
const CACHE_LIMIT = 10_000;

/** lastUsedAt is written at most this often per key. */
const LAST_USED_GAP_SECONDS = 60;

interface Cached {
  key: ApiKey;
  readAtMs: number;
}

/** API keys: made with a subset of the maker's scopes, shown once, looked up by hash on use, revoked at once. */
@Injectable()
export class ApiKeysService implements BeforeApplicationShutdown, ApiKeyVerifier {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new Map<string, Cached>();
  /** The cache's key hash of each key id (console sessions name their key by id). */
  private readonly hashById = new Map<string, string>();
  /** When this replica last wrote lastUsedAt of each key. */
  private readonly touched = new Map<string, number>();
  private readonly touching = new Set<Promise<void>>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: SystemClock,
  ) {}

  async create(dto: CreateApiKeyDto, creator: Credential, reservedId?: string): Promise<{ key: ApiKey; secret: string | null }> {
    const made = reservedId === undefined ? null : await this.keys.findById(reservedId);
    if (made) return { key: made, secret: null };
    const lacking = dto.scopes.find((scope) => !scopesGrant(creator.scopes, scope));
    if (lacking !== undefined) {
      throw withErrorCode(new ForbiddenException(`A key cannot hold a scope its creator lacks: ${lacking}`), 'insufficient_scope', { field: 'scopes' });
    }
    const expiresAt = dto.expiresAt === undefined ? null : new Date(dto.expiresAt);
    if (expiresAt !== null && expiresAt.getTime() <= this.clock.now().getTime()) throw invalidField('expiresAt', 'expiresAt must be in the future');
    const secret = newApiKeySecret();
    const key = await this.keys.insert({
      id: reservedId ?? randomUUID(),
      name: dto.name,
      scopes: [...new Set(dto.scopes)],
      keyHash: apiKeyHash(secret),
      createdBy: creator.actor,
      expiresAt,
    });
    return { key, secret };
  }

  list(query: ListQueryDto): Promise<Page<ApiKey>> {
    return this.keys.page(query);
  }

  async get(id: string): Promise<ApiKey> {
    const key = await this.keys.findById(id);
    if (!key) throw new NotFoundException(`API key ${id} not found`);
    return key;
  }

  /** Revokes the key; this replica forgets it at once, the others within API_KEY_CACHE_MS. */
  async revoke(id: string): Promise<ApiKey> {
    const key = await this.keys.revoke(id, this.clock.now());
    if (!key) throw new NotFoundException(`API key ${id} not found`);
    this.cache.delete(key.keyHash);
    return key;
  }

  /** The live key (not revoked, not expired) whose secret this is, or null. */
  async authenticate(secret: string): Promise<ApiKey | null> {
    if (!API_KEY_PATTERN.test(secret)) return null;
    const key = await this.read(apiKeyHash(secret));
    if (!key || !this.isLive(key)) return null;
    this.noteUse(key);
    return key;
  }

  /** Whether the key with this id is live, read as authenticate reads it (for console sessions made with a key). */
  async liveById(id: string): Promise<ApiKey | null> {
    const hash = this.hashById.get(id);
    const cached = hash === undefined ? undefined : this.cache.get(hash);
    const fresh = cached && this.fresh(cached) ? cached.key : null;
    const key = fresh ?? (await this.keys.findById(id));
    if (key && !fresh) this.remember(key);
    return key && this.isLive(key) ? key : null;
  }

  /** Waits for the lastUsedAt writes under way, so none outlives the database connection. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.touching]);
  }

  private async read(keyHash: string): Promise<ApiKey | null> {
    const cached = this.cache.get(keyHash);
    if (cached && this.fresh(cached)) return cached.key;
    const key = await this.keys.findByHash(keyHash);
    if (key) this.remember(key);
    else this.cache.delete(keyHash);
    return key;
  }

  private remember(key: ApiKey): void {
    if (this.cache.size >= CACHE_LIMIT) {
      this.cache.clear();
      this.hashById.clear();
    }
    this.cache.set(key.keyHash, { key, readAtMs: this.clock.now().getTime() });
    this.hashById.set(key.id, key.keyHash);
  }

  private fresh(entry: Cached): boolean {
    return this.clock.now().getTime() - entry.readAtMs < API_KEY_CACHE_MS;
  }

  private isLive(key: ApiKey): boolean {
    const now = this.clock.now().getTime();
    return key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now);
  }

  private noteUse(key: ApiKey): void {
    const now = this.clock.now();
    const last = this.touched.get(key.id) ?? 0;
    if (now.getTime() - last < LAST_USED_GAP_SECONDS * 1000) return;
    if (this.touched.size >= CACHE_LIMIT) this.touched.clear();
    this.touched.set(key.id, now.getTime());
    // Not awaited: the request does not wait for its bookkeeping.
    const touch = this.keys
      .touch(key.id, now, LAST_USED_GAP_SECONDS)
      .catch((error: unknown) => this.logger.warn({ err: error, apiKeyId: key.id }, 'Could not note the use of an API key'))
      .finally(() => this.touching.delete(touch));
    this.touching.add(touch);
  }
}
