import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Documentation of a batch's payouts counted by status. */
@ApiSchema({ name: 'PayoutCounts' })
export class PayoutCountsDto {
  @ApiProperty({ type: 'integer', example: 0 })
  pending: number;

  @ApiProperty({ type: 'integer', example: 1 })
  processing: number;

  @ApiProperty({ type: 'integer', example: 98 })
  succeeded: number;

  @ApiProperty({ type: 'integer', example: 1 })
  failed: number;
}
