import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutBatchDto } from './create-payout-batch.dto';
import { PayoutBatchResponseDto } from './payout-batch-response.dto';
import { PayoutBatchResponse } from './payout-responses';
import { PayoutBatchWithCounts, PayoutsService } from './payouts.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

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
  @RequiresScope('payouts:write')
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Body() body: CreatePayoutBatchDto, @ReservedId() reservedId?: string): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.createBatch(body.items, reservedId));
  }

  /** Newest first, each with its counts. Registered before PayoutsController, so `/payouts/batches` is this list. */
  @ApiAdminRoute({ summary: 'List payout batches', description: 'Each with its payouts counted by status.', errors: ['validation_failed'] })
  @ApiPageResponse(PayoutBatchResponseDto)
  @RequiresScope('payouts:read')
  @Get()
  async list(@Query() query: ListQueryDto): Promise<Page<PayoutBatchResponse>> {
    const page = await this.payouts.listBatches(query);
    return { items: page.items.map(toResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a payout batch', description: 'Its payouts counted by status.', id: 'payout batch' })
  @ApiOkResponse({ type: PayoutBatchResponseDto })
  @RequiresScope('payouts:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.getBatch(id));
  }
}
