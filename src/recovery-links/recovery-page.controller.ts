import { Controller, Get, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { clientAddress } from '../common/http/client-address';
import { PublicRoute } from '../common/http/public-route.decorator';
import { PageRateLimiterService } from '../rate-limits/page-rate-limiter.service';
import { pageLanguage, PageLanguage } from './recovery-page-texts';
import { recoveryPagePolicy, renderClosedPage, renderRecoveryPage } from './recovery-page.view';
import { RecoveryPagesService } from './recovery-pages.service';

/**
 * The recovery page: public (the signed token is the only credential), limited per client address, server-rendered
 * HTML under a policy that loads nothing and posts only to itself and the provider's card form. A token that names no
 * link answers exactly what an unknown path answers. HTML for people, not the JSON API: left out of the API description
 * (docs/recovery-links.md describes it).
 */
@ApiExcludeController()
@Controller('pay')
export class RecoveryPageController {
  constructor(
    private readonly pages: RecoveryPagesService,
    private readonly limiter: PageRateLimiterService,
  ) {}

  @PublicRoute()
  @Get(':token')
  async show(@Param('token') token: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.limiter.admit(clientAddress(request));
    const language = pageLanguage(request.headers['accept-language']);
    const outcome = await this.pages.page(token, language);
    if (outcome.kind === 'unknown') throw routeNotFound(request);
    if (outcome.kind === 'closed') return this.send(response, 410, language, renderClosedPage(language, outcome.reason));
    this.send(response, 200, language, renderRecoveryPage(language, outcome.model));
  }

  @PublicRoute()
  @Post(':token')
  async checkout(@Param('token') token: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.limiter.admit(clientAddress(request));
    const language = pageLanguage(request.headers['accept-language']);
    const outcome = await this.pages.checkout(token);
    if (outcome.kind === 'unknown') throw routeNotFound(request);
    if (outcome.kind === 'closed') return this.send(response, outcome.reason === 'unavailable' ? 503 : 410, language, renderClosedPage(language, outcome.reason));
    this.noStore(response);
    response.redirect(303, outcome.url);
  }

  private send(response: Response, status: number, language: PageLanguage, html: string): void {
    this.noStore(response);
    response.setHeader('Content-Security-Policy', recoveryPagePolicy(this.pages.checkoutOrigin()));
    response.setHeader('X-Frame-Options', 'DENY');
    response.setHeader('Content-Language', language);
    response.status(status).type('text/html; charset=utf-8').send(html);
  }

  /** The token is the credential: no cache keeps the page, and no Referer carries its address anywhere. */
  private noStore(response: Response): void {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
  }
}

/** Exactly what the router answers for a path nothing serves. */
function routeNotFound(request: Request): NotFoundException {
  return new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`);
}
