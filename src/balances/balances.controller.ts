import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { BalancesService } from './balances.service';
import { CustomerBalanceResponseDto } from './dto/customer-balance-response.dto';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Customers')
@Controller('api/v1/customers')
export class BalancesController {
  constructor(private readonly balances: BalancesService) {}

  @ApiAdminRoute({ summary: "A customer's credit balance", description: 'The balance per currency and its newest ledger entries.', id: 'customer' })
  @ApiOkResponse({ type: CustomerBalanceResponseDto })
  @RequiresScope('customers:read')
  @Get(':id/balance')
  async balance(@Param('id', UUID_PARAM) id: string): Promise<CustomerBalanceResponseDto> {
    const { balances, entries } = await this.balances.ofCustomer(id);
    return {
      balances,
      entries: entries.map((e) => ({
        id: e.id,
        currency: e.currency,
        kind: e.kind,
        amount: e.amount,
        subscriptionId: e.subscriptionId,
        chargeId: e.chargeId,
        description: e.description,
        createdAt: e.createdAt.toISOString(),
      })),
    };
  }
}
