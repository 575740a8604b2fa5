import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { RefundsService } from '../services/refunds.service';

/** CAPI refunds of captured payments: the merchant's API key only (an invoice's token may pay it, never refund it). */
@Controller('v2/processing')
export class ProcessingRefundsController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly refunds: RefundsService,
  ) {}

  @Post('invoices/:invoiceID/payments/:paymentID/refunds')
  create(@Param('invoiceID') invoiceID: string, @Param('paymentID') paymentID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createRefund', AuthRequirement.apiKey(), (ctx) => this.refunds.create(invoiceID, paymentID, ctx.body));
  }

  @Get('invoices/:invoiceID/payments/:paymentID/refunds')
  list(@Param('invoiceID') invoiceID: string, @Param('paymentID') paymentID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getRefunds', AuthRequirement.apiKey(), () => this.refunds.list(invoiceID, paymentID));
  }

  @Get('invoices/:invoiceID/payments/:paymentID/refunds/:refundID')
  get(
    @Param('invoiceID') invoiceID: string,
    @Param('paymentID') paymentID: string,
    @Param('refundID') refundID: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.exchange.handle(req, res, 'getRefund', AuthRequirement.apiKey(), () => this.refunds.get(invoiceID, paymentID, refundID));
  }

  @Get('refunds')
  findByExternalId(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getRefundByExternalId', AuthRequirement.apiKey(), (ctx) => this.refunds.findByExternalId(ctx.query));
  }
}
