import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, PROVIDER_ERRORS } from '../common/api-docs/api-route.decorators';
import { CreatePayoutSetupDto } from './create-payout-setup.dto';
import { PayoutSetupResponse, toPayoutSetupResponse } from './payout-responses';
import { PayoutSetupResponseDto } from './payout-setup-response.dto';
import { PayoutSetupService } from './payout-setup.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Payouts')
@Controller('api/v1/payouts/setup')
export class PayoutSetupController {
  constructor(private readonly setup: PayoutSetupService) {}

  @ApiAdminRoute({
    summary: 'Set up payouts',
    description: 'Creates the payout identity and wallet once; a repeat answers the same. PAYOUT_IDENTITY_ID and PAYOUT_WALLET_ID adopt existing ones.',
    body: true,
    idempotent: true,
    errors: [...PROVIDER_ERRORS, 'business_rule'],
  })
  @ApiCreatedResponse({ type: PayoutSetupResponseDto })
  @RequiresScope('payouts:write')
  @Post()
  async create(@Body() body: CreatePayoutSetupDto): Promise<PayoutSetupResponse> {
    return toPayoutSetupResponse(await this.setup.setUp(body));
  }

  @ApiAdminRoute({ summary: 'Read the payout setup', description: '404 until payouts are set up.', errors: ['not_found'] })
  @ApiOkResponse({ type: PayoutSetupResponseDto })
  @RequiresScope('payouts:read')
  @Get()
  async get(): Promise<PayoutSetupResponse> {
    return toPayoutSetupResponse(await this.setup.get());
  }
}
