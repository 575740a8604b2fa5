import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TAX_RATES } from './plan-validation';
import type { TaxRate } from './plan.entity';

/** Documentation of one cart line of a plan, as answered. */
@ApiSchema({ name: 'PlanLine' })
export class PlanLineResponseDto {
  @ApiProperty({ example: 'Pro plan, monthly' })
  product: string;

  @ApiProperty({ type: 'integer', description: 'Price of one unit, in minor units.', example: 2500 })
  price: number;

  @ApiProperty({ type: 'integer', example: 1 })
  quantity: number;

  @ApiPropertyOptional({ enum: TAX_RATES, description: 'Present when the line has one.', example: '20%' })
  taxRate?: TaxRate;
}
