import { All, Controller, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendHtml } from '../hosted-form/html-reply';
import { AcsService } from '../services/acs.service';
import { formFields } from './hosted-form.controller';

/**
 * The card issuer's 3-D Secure page (the ACS) that binding redirects point at: reached by a form POST or a GET,
 * as the redirect says, with the binding (MD) and its secret (PaReq).
 */
@Controller('sandbox/acs')
export class AcsController {
  constructor(private readonly acs: AcsService) {}

  @All()
  show(@Req() req: Request, @Res() res: Response): void {
    const fields = { ...(req.query as Record<string, unknown>), ...formFields(req) };
    sendHtml(res, this.acs.show(fields.MD, fields.PaReq));
  }

  @Post('confirm')
  async confirm(@Req() req: Request, @Res() res: Response): Promise<void> {
    const fields = formFields(req);
    sendHtml(res, await this.acs.confirm(fields.MD, fields.PaReq));
  }
}
