import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiPublicRoute } from '../common/api-docs/api-route.decorators';
import { PublicRoute } from '../common/http/public-route.decorator';
import { clientAddress } from '../common/http/client-address';
import { AppConfig } from '../config/app-config';
import { AuthFailureLimiterService } from '../rate-limits/auth-failure-limiter.service';
import { consoleCookie, isCrossSite, isHttps, readConsoleCookie } from './console-cookie';
import { ConsoleSessionResponseDto, ConsoleSessionStateResponseDto, ConsoleSignOutResponseDto } from './console-session-response.dto';
import { ConsoleSessionService } from './console-session.service';
import { CreateConsoleSessionDto } from './create-console-session.dto';

const BODY_ERRORS = ['validation_failed', 'invalid_json', 'body_too_deep', 'malformed_request', 'payload_too_large', 'unsupported_media_type', 'unsupported_encoding'] as const;

/**
 * Sign-in and sign-out of the operator console (`/console`). Both are public routes by nature: sign-in is where the
 * token is proved, and sign-out only ever ends the caller's own session.
 */
@ApiTags('Console')
@Controller('console/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly config: AppConfig,
    private readonly authFailures: AuthFailureLimiterService,
  ) {}

  @PublicRoute()
  @ApiPublicRoute({
    summary: 'Sign in to the operator console',
    description:
      'Checks the admin token or an API key and sets the HttpOnly, SameSite=Strict cookie `console_session` (Secure over https), valid 12 hours. The admin API accepts that cookie only together with the header `X-Console: 1` and from the same origin; a session opened with a key has the key\'s scopes and ends when the key is revoked or expires.',
    errors: ['unauthorized', 'rate_limited', ...BODY_ERRORS],
  })
  @ApiBody({ type: CreateConsoleSessionDto })
  @ApiCreatedResponse({ type: ConsoleSessionResponseDto })
  @Post()
  async signIn(@Body() body: CreateConsoleSessionDto, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    if (isCrossSite(request)) throw new UnauthorizedException('Sign in from the console itself: a sign-in from another site is refused');
    const address = clientAddress(request);
    this.authFailures.refuseIfBlocked(address, 'console_sign_in');
    const opened = await this.sessions.signIn(body.token);
    if (!opened) await this.authFailures.failed(address, 'console_sign_in');
    if (!opened) throw new UnauthorizedException('Wrong token: sign in with the ADMIN_TOKEN the daemon was started with or a live API key');
    const { id, expiresAt } = opened;
    response.setHeader('Set-Cookie', consoleCookie(id, isHttps(request, this.config.publicUrl)));
    response.setHeader('Cache-Control', 'no-store');
    return { expiresAt: expiresAt.toISOString() };
  }

  @PublicRoute()
  @ApiPublicRoute({
    summary: 'Whether the console is signed in',
    description: "Reads only the session named by the request's own cookie, so the console learns its state without a refused call.",
    errors: ['malformed_request'],
  })
  @ApiOkResponse({ type: ConsoleSessionStateResponseDto })
  @Get()
  async state(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const session = readConsoleCookie(request);
    const state = session === undefined ? null : await this.sessions.state(session);
    response.setHeader('Cache-Control', 'no-store');
    return { signedIn: state !== null, expiresAt: state?.expiresAt.toISOString() ?? null, testClock: state === null ? null : this.config.testClock, scopes: state?.scopes ?? null, taxRates: state === null ? null : [...this.config.taxRates] };
  }

  @PublicRoute()
  @ApiPublicRoute({
    summary: 'Sign out of the operator console',
    description: "Ends the session named by the request's cookie, if any, and clears the cookie.",
    errors: ['malformed_request', 'unsupported_media_type', 'unsupported_encoding', 'payload_too_large'],
  })
  @ApiOkResponse({ type: ConsoleSignOutResponseDto })
  @Delete()
  @HttpCode(200)
  async signOut(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const session = readConsoleCookie(request);
    if (session !== undefined) await this.sessions.close(session);
    response.setHeader('Set-Cookie', consoleCookie('', isHttps(request, this.config.publicUrl), 0));
    return { signedOut: true };
  }
}
