import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { AppConfig } from '../../config/app-config';
import { CONSOLE_HEADER, isCrossSite, readConsoleCookie } from '../../console/console-cookie';
import { ConsoleSessionService } from '../../console/console-session.service';
import { AuthFailureLimiterService } from '../../rate-limits/auth-failure-limiter.service';
import { RateLimiterService } from '../../rate-limits/rate-limiter.service';
import { clientAddress } from '../http/client-address';
import { withErrorCode } from '../errors/coded-error';
import { PUBLIC_ROUTE } from '../http/public-route.decorator';
import { Credential } from './actor';
import { apiKeyCredential, consoleCredential, ROOT_CREDENTIAL } from './credentials';
import { setRequestCredential } from './request-credential';
import { REQUIRED_SCOPE } from './requires-scope.decorator';
import { ADMIN_SCOPE, Scope, scopesGrant } from './scopes';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Deny by default: every handler needs a credential unless it is marked `@PublicRoute()`: `Authorization: Bearer`
 * with the ADMIN_TOKEN (every scope) or an API key holding the scope the route declares (`@RequiresScope`; `admin`
 * when it declares none). The decision is taken on the handler the router chose, never on the path string, so no
 * spelling of a path (letter case, slashes, encodings, dot segments) can reach a handler without it.
 *
 * Then each credential's requests are counted against API_RATE_LIMIT (429 past it, before any scope check or handler),
 * and each refused credential against AUTH_FAILURE_LIMIT for its client address.
 *
 * The operator console's session cookie stands in for the credential it was opened with only with the header
 * `X-Console: 1` (a header no other site's page can send without a CORS preflight this daemon never grants) and only
 * on a same-origin request.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
    private readonly consoleSessions: ConsoleSessionService,
    private readonly apiKeys: ApiKeysService,
    private readonly rateLimiter: RateLimiterService,
    private readonly authFailures: AuthFailureLimiterService,
  ) {
    this.expected = digest(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    if (this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) === true) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const address = clientAddress(request);
    this.authFailures.refuseIfBlocked(address, 'bearer');
    const credential = await this.authenticate(request).catch(async (error: unknown) => {
      if (error instanceof UnauthorizedException) await this.authFailures.failed(address, 'bearer');
      throw error;
    });
    await this.rateLimiter.admit(credential);
    const needed = this.reflector.get<Scope | undefined>(REQUIRED_SCOPE, context.getHandler()) ?? ADMIN_SCOPE;
    if (!scopesGrant(credential.scopes, needed)) {
      const refusal = withErrorCode(new ForbiddenException(`This credential lacks the scope ${needed}, which this route needs`), 'insufficient_scope');
      Object.assign(refusal.getResponse() as object, { scope: needed });
      throw refusal;
    }
    setRequestCredential(request, credential);
    return true;
  }

  private async authenticate(request: Request): Promise<Credential> {
    const header = request.headers.authorization;
    const session = readConsoleCookie(request);
    if (header === undefined && session !== undefined) return this.checkConsoleSession(request, session);
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
    if (match) {
      // Hashing first gives equal-length buffers, so the comparison time does not depend on the input.
      if (timingSafeEqual(digest(match[1]), this.expected)) return ROOT_CREDENTIAL;
      const key = await this.apiKeys.authenticate(match[1]);
      if (key) return apiKeyCredential(key);
    }
    throw new UnauthorizedException('Missing or wrong credential: send Authorization: Bearer <ADMIN_TOKEN or API key>');
  }

  private async checkConsoleSession(request: Request, session: string): Promise<Credential> {
    if (request.headers[CONSOLE_HEADER] !== '1') {
      throw new UnauthorizedException('A console session is accepted only with the header X-Console: 1; other clients send Authorization: Bearer <ADMIN_TOKEN or API key>');
    }
    if (isCrossSite(request)) throw new UnauthorizedException('A console session is accepted only from the console itself (same origin)');
    const live = await this.consoleSessions.find(session);
    if (live === null) throw new UnauthorizedException('The console session has expired or was signed out: sign in again');
    if (live.apiKeyId === null) return consoleCredential(null);
    const key = await this.apiKeys.liveById(live.apiKeyId);
    if (!key) throw new UnauthorizedException('The API key this console session was opened with was revoked or has expired: sign in again');
    return consoleCredential(key);
  }
}
