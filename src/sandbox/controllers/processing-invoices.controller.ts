import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { InvoicesService } from '../services/invoices.service';
import { PaymentsService } from '../services/payments.service';

/** CAPI invoices and payments (spec operations 5 and 6, plus the reads and token renewal). */
@Controller()
export class ProcessingInvoicesController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly invoices: InvoicesService,
    private readonly payments: PaymentsService,
  ) {}

  @Post('v2/processing/invoices')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createInvoice', AuthRequirement.apiKey(), (ctx) => this.invoices.create(ctx.body));
  }

  @Get('v2/processing/invoices')
  findByExternalId(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getInvoiceByExternalId', AuthRequirement.apiKey(), (ctx) => this.invoices.findByExternalId(ctx.query));
  }

  @Get('v2/processing/invoices/:invoiceID')
  get(@Param('invoiceID') invoiceID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getInvoice', AuthRequirement.apiKeyOrInvoiceToken(invoiceID), () => this.invoices.get(invoiceID));
  }

  @Get('v2/processing/invoices/:invoiceID/events')
  events(@Param('invoiceID') invoiceID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getInvoiceEvents', AuthRequirement.apiKeyOrInvoiceToken(invoiceID), (ctx) =>
      this.invoices.events(invoiceID, ctx.query, ctx.credential),
    );
  }

  @Post('v2/processing/invoices/:invoiceID/access-tokens')
  createAccessToken(@Param('invoiceID') invoiceID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createInvoiceAccessToken', AuthRequirement.apiKey(), () => this.invoices.createAccessToken(invoiceID));
  }

  /** The spec names the v1 path; the v2 path is the same operation. Only this invoice's access token may pay it. */
  @Post(['v1/processing/invoices/:invoiceID/payments', 'v2/processing/invoices/:invoiceID/payments'])
  createPayment(@Param('invoiceID') invoiceID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createPayment', AuthRequirement.invoiceToken(invoiceID), (ctx) =>
      this.payments.create(invoiceID, ctx.body, ctx.credential),
    );
  }

  @Get('v2/processing/invoices/:invoiceID/payments')
  listPayments(@Param('invoiceID') invoiceID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getPayments', AuthRequirement.apiKeyOrInvoiceToken(invoiceID), (ctx) =>
      this.payments.list(invoiceID, ctx.credential),
    );
  }

  @Get('v2/processing/invoices/:invoiceID/payments/:paymentID')
  getPayment(@Param('invoiceID') invoiceID: string, @Param('paymentID') paymentID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getPayment', AuthRequirement.apiKeyOrInvoiceToken(invoiceID), (ctx) =>
      this.payments.get(invoiceID, paymentID, ctx.credential),
    );
  }
}
