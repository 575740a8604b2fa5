import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { IsDateTimeWithZone } from '../common/http/date-time.validator';
import { OptionalNotNull, StorableText } from '../common/http/validators';
import { MAX_AMOUNT } from '../common/money/amount-limits';
import type { CouponDuration } from './coupon.entity';

export const COUPON_DURATIONS: CouponDuration[] = ['once', 'repeating', 'forever'];
export const COUPON_CODE_PATTERN = '^[A-Za-z0-9_-]{3,32}$';

/** `POST /api/v1/coupons`. Exactly one of `percentOff` and `amountOff`; the service checks the rules between fields. */
@ApiSchema({ name: 'CreateCoupon' })
export class CreateCouponDto {
  @ApiPropertyOptional({
    type: String,
    pattern: COUPON_CODE_PATTERN,
    description: 'What customers type: 3..32 of A-Z, 0-9, `_`, `-`; unique whatever its case, kept upper case. Default: one made from 10 random letters and digits.',
    example: 'SPRING50',
  })
  @OptionalNotNull()
  @IsString()
  @Matches(new RegExp(COUPON_CODE_PATTERN), { message: 'code must be 3..32 of A-Z, 0-9, _ and -' })
  code?: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Spring: half price for three months' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  name: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Percent off a period charge (rounded half away from zero); not with `amountOff`.', example: 50 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(100)
  percentOff?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'Minor units off a period charge (at most the charge); with `currency`, not with `percentOff`.' })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  amountOff?: number;

  @ApiPropertyOptional({ type: String, pattern: '^[A-Z]{3}$', description: 'The currency of `amountOff` (required with it, refused without it): the coupon applies only to plans in it.' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of three capital letters, e.g. RUB' })
  currency?: string;

  @ApiProperty({ enum: COUPON_DURATIONS, description: '`once`: the next period charge; `repeating`: `durationPeriods` period charges; `forever`: every one.', example: 'repeating' })
  @IsIn(COUPON_DURATIONS)
  duration: CouponDuration;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 120, description: 'Period charges covered; required with `repeating`, refused otherwise.', example: 3 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(120)
  durationPeriods?: number;

  @ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: 100, description: 'Only subscriptions to these plans may use it; default every plan.' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID(undefined, { each: true, message: 'appliesToPlans must hold plan ids (UUIDs)' })
  appliesToPlans?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 2147483647, description: 'How many subscriptions may use it in all, exact across replicas; default no limit.', example: 50 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(2147483647)
  maxRedemptions?: number;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'After this instant it can no longer be applied; subscriptions that have it keep it.', example: '2027-03-31T23:59:59.000Z' })
  @OptionalNotNull()
  @IsDateTimeWithZone()
  redeemBy?: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Only for customers who have never paid (no succeeded charge).' })
  @OptionalNotNull()
  @IsBoolean()
  firstTimeOnly?: boolean;
}
