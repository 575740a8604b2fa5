import { Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendHtml } from '../hosted-form/html-reply';
import { HostedFormService } from '../services/hosted-form.service';

/** The hosted payment form: the payer's side of the first binding flow. */
@Controller('sandbox')
export class HostedFormController {
  constructor(private readonly hostedForm: HostedFormService) {}

  @Get('hosted-form')
  show(@Query('customerID') customerID: unknown, @Query('customerAccessToken') token: unknown, @Res() res: Response): void {
    sendHtml(res, this.hostedForm.show(customerID, token));
  }

  @Post('hosted-form')
  async submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    const address = req.socket.remoteAddress ?? '';
    const reply = await this.hostedForm.submit(formFields(req), address.startsWith('::ffff:') ? address.slice(7) : address);
    sendHtml(res, reply);
  }
}

/** The urlencoded fields of a form post (the sandbox parses them only on its form paths). */
export function formFields(req: Request): Record<string, unknown> {
  const fields: unknown = req.body;
  return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
}
