import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutBatchDto } from './create-payout-batch.dto';
import { PayoutBatchResponseDto } from './payout-batch-response.dto';
import { PayoutBatchResponse } from './payout-responses';
import { PayoutBatchWithCounts, PayoutsService } from './payouts.service';

const toResponse = ({ batch, counts }: PayoutBatchWithCounts): PayoutBatchResponse => ({
  id: batch.id,
  total: batch.total,
  counts,
  createdAt: batch.createdAt.toISOString(),
});

@ApiTags('Payouts')
@Controller('api/v1/payouts/batches')
export class PayoutBatchesController {
  constructor(private readonly payouts: PayoutsService) {}

  /** 202: the payouts are accepted; the scheduler works them through. */
  @ApiAdminRoute({
    summary: 'Accept a batch of payouts',
    description: '1..10000 payouts, all checked first and accepted or refused together; the scheduler then sends them.',
    body: true,
    idempotent: true,
    errors: ['business_rule'],
  })
  @ApiAcceptedResponse({ type: PayoutBatchResponseDto })
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Body() body: CreatePayoutBatchDto): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.createBatch(body.items));
  }

  @ApiAdminRoute({ summary: 'Read a payout batch', description: 'Its payouts counted by status.', id: 'payout batch' })
  @ApiOkResponse({ type: PayoutBatchResponseDto })
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.getBatch(id));
  }
}
