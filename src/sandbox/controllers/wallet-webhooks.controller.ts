import { Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { WalletWebhooksService } from '../services/wallet-webhooks.service';

/** Wallet API webhook management: an identity's subscriptions to withdrawal and destination events. */
@Controller('wallet/v0/webhooks')
export class WalletWebhooksController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly webhooks: WalletWebhooksService,
  ) {}

  @Post()
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createWalletWebhook', AuthRequirement.apiKey(), (ctx) => this.webhooks.create(ctx.body));
  }

  @Get()
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'listWalletWebhooks', AuthRequirement.apiKey(), (ctx) => this.webhooks.list(ctx.query));
  }

  @Get(':webhookID')
  get(@Param('webhookID') webhookID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWalletWebhook', AuthRequirement.apiKey(), (ctx) => this.webhooks.get(webhookID, ctx.query));
  }

  @Delete(':webhookID')
  remove(@Param('webhookID') webhookID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'deleteWalletWebhook', AuthRequirement.apiKey(), (ctx) => this.webhooks.remove(webhookID, ctx.query));
  }
}
