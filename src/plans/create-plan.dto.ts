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
import type { PlanInterval } from './plan.entity';
import { PlanDunningDto } from './plan-dunning.dto';
import { PlanLineDto } from './plan-line.dto';
import { IsMetadata, OptionalNotNull, StorableText } from '../common/http/validators';
import { LinesTotalAtMost, MAX_AMOUNT, PeriodAtMostThreeYears, PLAN_INTERVALS } from './plan-validation';

/** `POST /api/v1/plans`. Types are checked strictly: "5" is not a number here. */
export class CreatePlanDto {
  @IsString()
  @Length(1, 100)
  @StorableText()
  name: string;

  /** Becomes the invoice `product`. */
  @IsString()
  @Length(1, 100)
  @StorableText()
  product: string;

  /** Becomes the invoice `description`. */
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string;

  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of three capital letters, e.g. RUB' })
  currency: string;

  @IsIn(PLAN_INTERVALS)
  interval: PlanInterval;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @PeriodAtMostThreeYears()
  intervalCount?: number;

  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(730)
  trialDays?: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  // An array inside the array would pass ValidateNested element by element; each line must be an object.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PlanLineDto)
  @LinesTotalAtMost(MAX_AMOUNT)
  lines: PlanLineDto[];

  /** Default: PROVIDER_SHOP_ID. */
  @OptionalNotNull()
  @IsString()
  @Length(1, 40)
  @StorableText()
  shopId?: string;

  /** Absent: the environment's ladder applies (and follows later changes of the environment). */
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PlanDunningDto)
  dunning?: PlanDunningDto;

  @OptionalNotNull()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
