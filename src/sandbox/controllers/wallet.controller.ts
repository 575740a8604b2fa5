import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { PayoutsService } from '../services/payouts.service';
import { WalletService } from '../services/wallet.service';

/** Wallet API: identity, wallet, destinations and withdrawals (spec operations 8, 9, 11-14). */
@Controller('wallet/v0')
export class WalletController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly wallet: WalletService,
    private readonly payouts: PayoutsService,
  ) {}

  @Post('identities')
  createIdentity(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createIdentity', AuthRequirement.apiKey(), (ctx) => this.wallet.createIdentity(ctx.body));
  }

  @Get('identities/:identityID')
  getIdentity(@Param('identityID') identityID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getIdentity', AuthRequirement.apiKey(), () => this.wallet.getIdentity(identityID));
  }

  @Post('wallets')
  createWallet(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createWallet', AuthRequirement.apiKey(), (ctx) => this.wallet.createWallet(ctx.body));
  }

  @Get('wallets/:walletID')
  getWallet(@Param('walletID') walletID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWallet', AuthRequirement.apiKey(), () => this.wallet.getWallet(walletID));
  }

  @Post('destinations')
  createDestination(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createDestination', AuthRequirement.apiKey(), (ctx) => this.payouts.createDestination(ctx.body));
  }

  @Get('destinations/:destinationID')
  getDestination(@Param('destinationID') destinationID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getDestination', AuthRequirement.apiKey(), () => this.payouts.getDestination(destinationID));
  }

  @Post('withdrawals')
  createWithdrawal(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'createWithdrawal', AuthRequirement.apiKey(), (ctx) => this.payouts.createWithdrawal(ctx.body));
  }

  @Get('withdrawals/:withdrawalID')
  getWithdrawal(@Param('withdrawalID') withdrawalID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWithdrawal', AuthRequirement.apiKey(), () => this.payouts.getWithdrawal(withdrawalID));
  }

  @Get('external-ids/withdrawals/:externalID')
  withdrawalByExternalId(@Param('externalID') externalID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWithdrawalByExternalId', AuthRequirement.apiKey(), () => this.payouts.getWithdrawalByExternalId(externalID));
  }

  @Get('withdrawals/:withdrawalID/events')
  withdrawalEvents(@Param('withdrawalID') withdrawalID: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'getWithdrawalEvents', AuthRequirement.apiKey(), (ctx) => this.payouts.events(withdrawalID, ctx.query));
  }
}
