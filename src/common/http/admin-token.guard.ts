import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { CONSOLE_HEADER, isCrossSite, readConsoleCookie } from '../../console/console-cookie';
import { ConsoleSessionService } from '../../console/console-session.service';
import { PUBLIC_ROUTE } from './public-route.decorator';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Deny by default: every handler needs `Authorization: Bearer <ADMIN_TOKEN>` unless it is marked
 * `@PublicRoute()`. The decision is taken on the handler the router chose, never on the path string, so
 * no spelling of a path (letter case, slashes, encodings, dot segments) can reach a handler without the token.
 *
 * The operator console's session cookie stands in for the token only with the header `X-Console: 1` (a header no
 * other site's page can send without a CORS preflight this daemon never grants) and only on a same-origin request.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
    private readonly consoleSessions: ConsoleSessionService,
  ) {
    this.expected = digest(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    if (this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) === true) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers.authorization;
    const session = readConsoleCookie(request);
    if (header === undefined && session !== undefined) return this.checkConsoleSession(request, session);
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
    // Hashing first gives equal-length buffers, so the comparison time does not depend on the input.
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new UnauthorizedException('Missing or wrong admin token: send Authorization: Bearer <ADMIN_TOKEN>');
    }
    return true;
  }

  private async checkConsoleSession(request: Request, session: string): Promise<boolean> {
    if (request.headers[CONSOLE_HEADER] !== '1') {
      throw new UnauthorizedException('A console session is accepted only with the header X-Console: 1; other clients send Authorization: Bearer <ADMIN_TOKEN>');
    }
    if (isCrossSite(request)) throw new UnauthorizedException('A console session is accepted only from the console itself (same origin)');
    if (!(await this.consoleSessions.isLive(session))) {
      throw new UnauthorizedException('The console session has expired or was signed out: sign in again with the admin token');
    }
    return true;
  }
}
