import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { clientAddress } from '../http/client-address';
import { withErrorCode } from '../errors/coded-error';
import { PUBLIC_ROUTE } from '../http/public-route.decorator';
import { Credential } from './actor';
import { ApiKeyVerifier } from './api-key-verifier';
import { AuthFailureLimit } from './auth-failure-limit';
import { CredentialRateLimit } from './credential-rate-limit';
import { apiKeyCredential, ROOT_CREDENTIAL } from './credentials';
import { SessionCredentials } from './session-credentials';
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
 * A request without `Authorization` may present a session instead (the operator console's cookie): the console module
 * decides when it stands in for the credential it was opened with (SessionCredentials). The modules that know keys,
 * sessions and limits provide what this guard asks of them (ApiKeyVerifier, SessionCredentials, CredentialRateLimit,
 * AuthFailureLimit), so the common module imports none of them.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
    private readonly sessions: SessionCredentials,
    private readonly apiKeys: ApiKeyVerifier,
    private readonly rateLimiter: CredentialRateLimit,
    private readonly authFailures: AuthFailureLimit,
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
    const session = this.sessions.sessionOf(request);
    if (header === undefined && session !== undefined) return this.sessions.credentialFor(request, session);
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
    if (match) {
      // Hashing first gives equal-length buffers, so the comparison time does not depend on the input.
      if (timingSafeEqual(digest(match[1]), this.expected)) return ROOT_CREDENTIAL;
      const key = await this.apiKeys.authenticate(match[1]);
      if (key) return apiKeyCredential(key);
    }
    throw new UnauthorizedException('Missing or wrong credential: send Authorization: Bearer <ADMIN_TOKEN or API key>');
  }
}
