import { Controller, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { CardVaultService } from '../services/card-vault.service';

/** CAPI card tokenization (spec operation 7). */
@Controller('v2/processing/payment-resources')
export class PaymentResourcesController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly vault: CardVaultService,
  ) {}

  @Post()
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createPaymentResource', AuthRequirement.anyCredential(), (ctx) =>
      this.vault.createPaymentResource(ctx.body, ctx.clientIp),
    );
  }
}
