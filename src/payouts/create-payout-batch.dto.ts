import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { CreatePayoutDto } from './create-payout.dto';
import { MAX_BATCH_ITEMS } from './payout-limits';

/** POST /api/v1/payouts/batches: 1..10000 payouts accepted or refused together. */
@ApiSchema({ name: 'CreatePayoutBatch' })
export class CreatePayoutBatchDto {
  @ApiProperty({ type: [CreatePayoutDto], minItems: 1, maxItems: MAX_BATCH_ITEMS, description: 'Every payout is checked first; one refusal refuses the whole batch.' })
  @IsArray()
  @ArrayMinSize(1, { message: `items must hold 1..${MAX_BATCH_ITEMS} payouts` })
  @ArrayMaxSize(MAX_BATCH_ITEMS, { message: `items must hold 1..${MAX_BATCH_ITEMS} payouts` })
  @ValidateNested({ each: true })
  @Type(() => CreatePayoutDto)
  items: CreatePayoutDto[];
}
