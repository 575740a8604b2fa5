import { All, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { acsPage } from '../hosted-form/hosted-form-pages';
import { HostedFormService, HtmlReply } from '../services/hosted-form.service';

/** The hosted payment form and the 3-D Secure page its redirects point at. */
@Controller('sandbox')
export class HostedFormController {
  constructor(private readonly hostedForm: HostedFormService) {}

  @Get('hosted-form')
  show(@Query('customerID') customerID: unknown, @Query('customerAccessToken') token: unknown, @Res() res: Response): void {
    send(res, this.hostedForm.show(customerID, token));
  }

  @Post('hosted-form')
  async submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    const fields: unknown = req.body;
    const address = req.socket.remoteAddress ?? '';
    const reply = await this.hostedForm.submit(
      typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {},
      address.startsWith('::ffff:') ? address.slice(7) : address,
    );
    send(res, reply);
  }

  @All('acs')
  acs(@Res() res: Response): void {
    send(res, { status: 200, html: acsPage() });
  }
}

/**
 * The form takes card data: it may not be framed (clickjacking), may post only to itself, and runs no script at
 * all; its one inline style is allowed by a per-response nonce. It carries a customer access token, so it stays
 * out of caches and referrers.
 */
function send(res: Response, reply: HtmlReply): void {
  const nonce = randomBytes(16).toString('base64');
  res
    .status(reply.status)
    .set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    })
    .type('html')
    .send(reply.html.replace(/<style>/g, `<style nonce="${nonce}">`));
}
