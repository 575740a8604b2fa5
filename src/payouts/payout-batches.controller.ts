import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
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

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutBatchResponse> {
    return toResponse(await this.payouts.getBatch(id));
  }
}
