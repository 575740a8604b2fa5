import { applyDecorators } from '@nestjs/common';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The seats rule of a subscription's `quantity` (1..10000), shared by create and change so the two cannot drift. */
export function IsSeatQuantity(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsInt({ message: 'quantity must be an integer' }),
    Min(1, { message: 'quantity must be at least 1' }),
    Max(10000, { message: 'quantity must be at most 10000' }),
  );
}
