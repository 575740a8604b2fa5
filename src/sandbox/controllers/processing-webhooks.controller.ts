import { Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { WebhooksService } from '../services/webhooks.service';

/** CAPI webhook management: the party's subscriptions to invoice and customer events. */
@Controller('v2/processing/webhooks')
export class ProcessingWebhooksController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly webhooks: WebhooksService,
  ) {}

  @Post()
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createWebhook', AuthRequirement.apiKey(), (ctx) => this.webhooks.create(ctx.body));
  }

  @Get()
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'listWebhooks', AuthRequirement.apiKey(), () => this.webhooks.list());
  }

  @Get(':webhookID')
  get(@Param('webhookID') webhookID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWebhook', AuthRequirement.apiKey(), () => this.webhooks.get(webhookID));
  }

  @Delete(':webhookID')
  remove(@Param('webhookID') webhookID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'deleteWebhook', AuthRequirement.apiKey(), () => this.webhooks.remove(webhookID));
  }
}
