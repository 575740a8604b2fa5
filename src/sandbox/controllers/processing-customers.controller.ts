import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { CustomersService } from '../services/customers.service';

/** CAPI customers, bindings and customer events (spec operations 1-4). */
@Controller('v2/processing/customers')
export class ProcessingCustomersController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly customers: CustomersService,
  ) {}

  @Post()
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createCustomer', AuthRequirement.apiKey(), (ctx) => this.customers.create(ctx.body));
  }

  @Get(':customerID')
  get(@Param('customerID') customerID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getCustomer', AuthRequirement.apiKeyOrCustomerToken(customerID), () => this.customers.get(customerID));
  }

  @Post(':customerID/access-tokens')
  createAccessToken(@Param('customerID') customerID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createCustomerAccessToken', AuthRequirement.apiKey(), () => this.customers.createAccessToken(customerID));
  }

  @Post(':customerID/bindings')
  createBinding(@Param('customerID') customerID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createBinding', AuthRequirement.apiKeyOrCustomerToken(customerID), (ctx) =>
      this.customers.createBinding(customerID, ctx.body),
    );
  }

  @Get(':customerID/bindings')
  listBindings(@Param('customerID') customerID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getBindings', AuthRequirement.apiKeyOrCustomerToken(customerID), () => this.customers.listBindings(customerID));
  }

  @Get(':customerID/bindings/:bindingID')
  getBinding(@Param('customerID') customerID: string, @Param('bindingID') bindingID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getBinding', AuthRequirement.apiKeyOrCustomerToken(customerID), () =>
      this.customers.getBinding(customerID, bindingID),
    );
  }

  @Get(':customerID/events')
  events(@Param('customerID') customerID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getCustomerEvents', AuthRequirement.apiKeyOrCustomerToken(customerID), (ctx) =>
      this.customers.events(customerID, ctx.query),
    );
  }
}
