import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import type { TaxRate } from './plan.entity';
import { OptionalNotNull, StorableText } from '../common/http/validators';
import { IsTaxRate, MAX_AMOUNT } from './plan-validation';
import { DEFAULT_TAX_RATES } from '../common/tax-rates';

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

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^(0|[1-9][0-9]?)%$|^[1-9][0-9]?/1[0-9]{2}$',
    description: `VAT rate of the line, sent to the provider's cart as given: \`N%\` on top of the price, \`N/(100+N)\` included in it. One of BILLING_TAX_RATES (default ${DEFAULT_TAX_RATES.split(',').join(', ')}); another rate is a 400 naming the line.`,
    example: '22%',
  })
  @OptionalNotNull()
  @IsTaxRate()
  taxRate?: TaxRate;
}
