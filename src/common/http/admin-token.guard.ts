import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Every /api/v1 route needs `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: AppConfig) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.path.startsWith('/api/')) return true;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    // Hashing first gives equal-length buffers, so the comparison time does not depend on the input.
    if (!match || !timingSafeEqual(digest(match[1].trim()), this.expected)) {
      throw new UnauthorizedException('Missing or wrong admin token: send Authorization: Bearer <ADMIN_TOKEN>');
    }
    return true;
  }
}
