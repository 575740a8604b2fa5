import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutBatchDto } from './create-payout-batch.dto';
import { PayoutBatchResponse } from './payout-responses';
import { PayoutBatchWithCounts, PayoutsService } from './payouts.service';

const toResponse = ({ batch, counts }: PayoutBatchWithCounts): PayoutBatchResponse => ({
  id: batch.id,
  total: batch.total,
  counts,
  createdAt: batch.createdAt.toISOString(),
});

@Controller('api/v1/payouts/batches')
export class PayoutBatchesController {
  constructor(private readonly payouts: PayoutsService) {}

  /** 202: the payouts are accepted; the scheduler works them through. */
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Body() body: CreatePayoutBatchDto): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.createBatch(body.items));
  }

  /** Newest first, each with its counts. Registered before PayoutsController, so `/payouts/batches` is this list. */
  @Get()
  async list(@Query() query: ListQueryDto): Promise<Page<PayoutBatchResponse>> {
    const page = await this.payouts.listBatches(query);
    return { items: page.items.map(toResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.getBatch(id));
  }
}
