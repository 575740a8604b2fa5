import { Controller, Get, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiPublicRoute } from '../common/api-docs/api-route.decorators';
import { clientAddress } from '../common/http/client-address';
import { PublicRoute } from '../common/http/public-route.decorator';
import { PageRateLimiterService } from '../rate-limits/page-rate-limiter.service';
import { pageLanguage, PageLanguage } from './recovery-page-texts';
import { recoveryPagePolicy, renderClosedPage, renderRecoveryPage } from './recovery-page.view';
import { RecoveryPagesService } from './recovery-pages.service';

const HTML_PAGE = { 'text/html': { schema: { type: 'string' } } };

/**
 * The recovery page: public (the signed token is the only credential), limited per client address, server-rendered
 * HTML under a policy that loads nothing and posts only to itself and the provider's card form. A token that names no
 * link answers exactly what an unknown path answers.
 */
@ApiTags('Recovery page')
@Controller('pay')
export class RecoveryPageController {
  constructor(
    private readonly pages: RecoveryPagesService,
    private readonly limiter: PageRateLimiterService,
  ) {}

  @PublicRoute()
  @ApiPublicRoute({
    summary: 'The recovery page a link opens',
    description: "HTML, in Russian or English by Accept-Language: the amount due, the plan and the masked current card, and a button to the provider's card form. 410 for a paid charge, an expired or a revoked link; 404, as for any unknown path, for a token that is not one.",
    errors: ['route_not_found', 'rate_limited'],
  })
  @ApiParam({ name: 'token', description: 'The signed token of the link', schema: { type: 'string' } })
  @ApiOkResponse({ description: 'The page.', content: HTML_PAGE })
  @ApiResponse({ status: 410, description: 'The charge is paid, or the link expired or was replaced: a page says which.', content: HTML_PAGE })
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
  @ApiPublicRoute({
    summary: "The recovery page's button: to the provider's card form",
    description: 'Makes a customer access token now and answers 303 to PROVIDER_CHECKOUT_URL with `customerID` and `customerAccessToken`. The same 410 and 404 answers as the page.',
    errors: ['route_not_found', 'rate_limited'],
  })
  @ApiParam({ name: 'token', description: 'The signed token of the link', schema: { type: 'string' } })
  @ApiResponse({ status: 303, description: "To the provider's card form (Location)." })
  @ApiResponse({ status: 410, description: 'The charge is paid, or the link expired or was replaced.', content: HTML_PAGE })
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
