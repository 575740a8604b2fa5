import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { PlanInterval, TaxRate } from './plan.entity';
import { PlanDunningDto } from './plan-dunning.dto';
import { PlanLineDto } from './plan-line.dto';
import { ApiCurrencyProperty, ApiMetadataProperty } from '../common/api-docs/api-properties';
import { IsMetadata, OptionalNotNull, StorableText } from '../common/http/validators';
import { IsTaxRate, LinesTotalAtMost, MAX_AMOUNT, OnlyWithSetupFee, PeriodAtMostThreeYears, PLAN_INTERVALS, SetupFeeWithinLimit } from './plan-validation';

/** `POST /api/v1/plans`. Types are checked strictly: "5" is not a number here. */
@ApiSchema({ name: 'CreatePlan' })
export class CreatePlanDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Pro monthly' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  name: string;

  /** Becomes the invoice `product`. */
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Becomes the invoice `product`.', example: 'Pro plan' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  product: string;

  /** Becomes the invoice `description`. */
  @ApiPropertyOptional({ maxLength: 1000, description: 'Becomes the invoice `description`.', example: 'Everything in Pro, billed monthly' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string;

  @ApiCurrencyProperty()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of three capital letters, e.g. RUB' })
  currency: string;

  @ApiProperty({ enum: PLAN_INTERVALS, description: 'The unit of one billing period.', example: 'month' })
  @IsIn(PLAN_INTERVALS)
  interval: PlanInterval;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1096,
    default: 1,
    description: 'Intervals per billing period; one period is at most 3 years (day ≤ 1096, week ≤ 156, month ≤ 36, year ≤ 3).',
    example: 1,
  })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @PeriodAtMostThreeYears()
  intervalCount?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 730, default: 0, description: 'Free days before the first charge.', example: 14 })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(730)
  trialDays?: number;

  @ApiProperty({
    type: [PlanLineDto],
    minItems: 1,
    maxItems: 100,
    description: `The invoice's cart lines each period; the plan's amount (sum of price × quantity) is at most ${MAX_AMOUNT}.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  // An array inside the array would pass ValidateNested element by element; each line must be an object.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PlanLineDto)
  @LinesTotalAtMost(MAX_AMOUNT)
  lines: PlanLineDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_AMOUNT,
    description: `Charged once per subscription (not per seat), in minor units: an extra cart line of its first paid period's invoice, or, with a trial, a charge of kind \`one_off\` at the subscription's start. With the plan's amount at most ${MAX_AMOUNT}.`,
    example: 9900,
  })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  @SetupFeeWithinLimit(MAX_AMOUNT)
  setupFee?: number;

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^(0|[1-9][0-9]?)%$|^[1-9][0-9]?/1[0-9]{2}$',
    description: "The setup fee line's VAT rate, as a line's (one of BILLING_TAX_RATES); only with `setupFee`.",
    example: '22%',
  })
  @OptionalNotNull()
  @IsTaxRate()
  @OnlyWithSetupFee()
  setupFeeTaxRate?: TaxRate;

  /** Default: PROVIDER_SHOP_ID. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 40, description: "The provider's shop to invoice; default PROVIDER_SHOP_ID.", example: 'shop-1' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 40)
  @StorableText()
  shopId?: string;

  /** Absent: the environment's ladder applies (and follows later changes of the environment). */
  @ApiPropertyOptional({ type: PlanDunningDto, description: "Absent: DUNNING_RETRY_DELAYS and DUNNING_FINAL_ACTION apply, and follow later changes of the environment." })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PlanDunningDto)
  dunning?: PlanDunningDto;

  @ApiMetadataProperty()
  @OptionalNotNull()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
