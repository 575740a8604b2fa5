import { Controller, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthRequirement } from '../http/auth-requirement';
import { ProviderExchange } from '../http/provider-exchange.service';
import { CardVaultService } from '../services/card-vault.service';

/** Payment Resource API card tokenization for payouts (spec operation 10). */
@Controller('payres/v0/bank-cards')
export class PayresController {
  constructor(
    private readonly exchange: ProviderExchange,
    private readonly vault: CardVaultService,
  ) {}

  @Post()
  tokenize(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.exchange.handle(req, res, 'tokenizeBankCard', AuthRequirement.apiKey(), (ctx) => this.vault.tokenizeBankCard(ctx.body));
  }
}
