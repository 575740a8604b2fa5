import { Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { Credential } from '../common/auth/actor';
import { consoleCredential } from '../common/auth/credentials';
import { SessionCredentials } from '../common/auth/session-credentials';
import { CONSOLE_HEADER, isCrossSite, readConsoleCookie } from './console-cookie';
import { ConsoleSessionService } from './console-session.service';

/**
 * The console's session cookie as a credential for the admin guard (CredentialGuard): it stands in for the credential
 * it was opened with only with the header `X-Console: 1` (a header no other site's page can send without a CORS
 * preflight this daemon never grants) and only on a same-origin request.
 */
@Injectable()
export class ConsoleSessionCredentials extends SessionCredentials {
  constructor(
    private readonly consoleSessions: ConsoleSessionService,
    private readonly apiKeys: ApiKeysService,
  ) {
    super();
  }

  sessionOf(request: Request): string | undefined {
    return readConsoleCookie(request);
  }

  async credentialFor(request: Request, session: string): Promise<Credential> {
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
