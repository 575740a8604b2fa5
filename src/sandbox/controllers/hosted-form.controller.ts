import { All, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
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

function send(res: Response, reply: HtmlReply): void {
  // The form page carries a customer access token; keep it out of caches and referrers.
  res.status(reply.status).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('html').send(reply.html);
}
