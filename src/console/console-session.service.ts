import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RetentionService } from '../common/retention/retention.service';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ADMIN_SCOPE } from '../common/auth/scopes';
import { AppConfig } from '../config/app-config';
import { ConsoleSessionsRepository } from './console-sessions.repository';

/** How long a console sign-in lasts. */
export const CONSOLE_SESSION_SECONDS = 12 * 3600;

/** A session id is 32 random bytes, base64url: exactly 43 characters of this alphabet. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Console sign-in: the admin token (or an API key) is exchanged for a random session id that the browser keeps in an HttpOnly
 * cookie. Only HMAC(admin token, session id) is stored, so a copy of the database holds neither the token nor a
 * usable session, and a new ADMIN_TOKEN ends every session.
 */
@Injectable()
export class ConsoleSessionService implements OnModuleInit {
  private readonly expectedToken: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly retention: RetentionService,
    private readonly apiKeys: ApiKeysService,
  ) {
    this.expectedToken = digest(config.adminToken);
  }

  onModuleInit(): void {
    this.retention.register('expired console sessions', () => this.sessions.pruneExpired());
  }

  /** Whether `token` is the admin token, in time that does not depend on the input. */
  isAdminToken(token: string): boolean {
    return timingSafeEqual(digest(token), this.expectedToken);
  }

  /**
   * A new session for a caller who proved the admin token (`apiKeyId` null) or an API key: its id (for the cookie
   * only) and its expiry.
   */
  async open(apiKeyId: string | null): Promise<{ id: string; expiresAt: Date }> {
    const id = randomBytes(32).toString('base64url');
    const expiresAt = await this.sessions.insert(this.keyOf(id), CONSOLE_SESSION_SECONDS, apiKeyId);
    return { id, expiresAt };
  }

  /** The live session named by the id (when it expires, the key it was opened with); null when there is none. */
  find(id: string): Promise<{ expiresAt: Date; apiKeyId: string | null } | null> {
    return SESSION_ID.test(id) ? this.sessions.findLive(this.keyOf(id)) : Promise.resolve(null);
  }

  /** A session for whoever proves ADMIN_TOKEN or a live API key; null for anything else. */
  async signIn(token: string): Promise<{ id: string; expiresAt: Date } | null> {
    if (this.isAdminToken(token)) return this.open(null);
    const key = await this.apiKeys.authenticate(token);
    return key ? this.open(key.id) : null;
  }

  /** The live session's expiry and scopes (its key's, or every scope); null when signed out, expired or its key revoked. */
  async state(id: string): Promise<{ expiresAt: Date; scopes: string[] } | null> {
    const session = await this.find(id);
    if (session === null) return null;
    if (session.apiKeyId === null) return { expiresAt: session.expiresAt, scopes: [ADMIN_SCOPE] };
    const key = await this.apiKeys.liveById(session.apiKeyId);
    return key ? { expiresAt: session.expiresAt, scopes: key.scopes } : null;
  }

  async close(id: string): Promise<void> {
    if (SESSION_ID.test(id)) await this.sessions.delete(this.keyOf(id));
  }

  private keyOf(id: string): string {
    return createHmac('sha256', this.config.adminToken).update(id).digest('hex');
  }
}
