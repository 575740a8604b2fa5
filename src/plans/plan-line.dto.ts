import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import type { TaxRate } from './plan.entity';
import { OptionalNotNull, StorableText } from '../common/http/validators';
import { MAX_AMOUNT, TAX_RATES } from './plan-validation';

/** One cart line of the invoice each period: what the provider's InvoiceLine accepts. */
@ApiSchema({ name: 'PlanLineInput' })
export class PlanLineDto {
  @ApiProperty({ minLength: 1, maxLength: 1000, description: 'The cart line text on the invoice.', example: 'Pro plan, monthly' })
  @IsString()
  @Length(1, 1000)
  @StorableText()
  product: string;

  /** Price of one unit in minor units. */
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'Price of one unit, in minor units.', example: 2500 })
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  price: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, default: 1, example: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  quantity?: number;

  @ApiPropertyOptional({ enum: TAX_RATES, description: 'VAT rate of the line, as the provider names it.', example: '20%' })
  @OptionalNotNull()
  @IsIn(TAX_RATES)
  taxRate?: TaxRate;
}
