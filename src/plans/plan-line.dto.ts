import { IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';
import type { TaxRate } from './plan.entity';
import { OptionalNotNull, StorableText } from '../common/http/validators';
import { MAX_AMOUNT, TAX_RATES } from './plan-validation';

/** One cart line of the invoice each period: what the provider's InvoiceLine accepts. */
export class PlanLineDto {
  @IsString()
  @Length(1, 1000)
  @StorableText()
  product: string;

  /** Price of one unit in minor units. */
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  price: number;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  quantity?: number;

  @OptionalNotNull()
  @IsIn(TAX_RATES)
  taxRate?: TaxRate;
}
