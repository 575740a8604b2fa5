import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimeProperty } from '../common/api-docs/api-properties';
import { PayoutCountsDto } from './payout-counts.dto';

/** Documentation of a payout batch: its size and where its payouts are. */
@ApiSchema({ name: 'PayoutBatch' })
export class PayoutBatchResponseDto {
  @ApiIdProperty('The batch id; list its payouts with GET /api/v1/payouts?batchId=.')
  id: string;

  @ApiProperty({ type: 'integer', description: 'Payouts in the batch.', example: 100 })
  total: number;

  @ApiProperty({ type: PayoutCountsDto })
  counts: PayoutCountsDto;

  @ApiTimeProperty('When it was accepted.')
  createdAt: string;
}
