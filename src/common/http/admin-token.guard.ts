import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { PUBLIC_ROUTE } from './public-route.decorator';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Deny by default: every handler needs `Authorization: Bearer <ADMIN_TOKEN>` unless it is marked
 * `@PublicRoute()`. The decision is taken on the handler the router chose, never on the path string, so
 * no spelling of a path (letter case, slashes, encodings, dot segments) can reach a handler without the token.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return false;
    if (this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) === true) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    // Hashing first gives equal-length buffers, so the comparison time does not depend on the input.
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new UnauthorizedException('Missing or wrong admin token: send Authorization: Bearer <ADMIN_TOKEN>');
    }
    return true;
  }
}
