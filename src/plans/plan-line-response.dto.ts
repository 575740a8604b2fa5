import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
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

  @ApiPropertyOptional({ type: 'string', description: 'VAT rate, present when the line has one (`N%` on top of the price, `N/(100+N)` included in it).', example: '22%' })
  taxRate?: TaxRate;
}
