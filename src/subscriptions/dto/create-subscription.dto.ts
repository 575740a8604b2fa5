import { IsSeatQuantity } from './seat-quantity.decorator';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { COUPON_CODE_PATTERN } from '../../coupons/create-coupon.dto';
import { ApiIdProperty, ApiMetadataProperty } from '../../common/api-docs/api-properties';
import { IsDateTimeWithZone } from '../../common/http/date-time.validator';
import { IsMetadata } from '../../common/http/validators';

@ApiSchema({ name: 'CreateSubscription' })
export class CreateSubscriptionDto {
  @ApiIdProperty('The customer who pays; it may still be unready (the subscription is then incomplete until a card is bound).')
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId: string;

  @ApiIdProperty('An active plan.')
  @IsUUID(undefined, { message: 'planId must be a UUID' })
  planId: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10000, default: 1, description: "Seats: every plan line's quantity is multiplied by it. The plan's amount × quantity is at most 10^15 minor units (422 past it).", example: 1 })
  @IsSeatQuantity()
  quantity?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'When billing starts, with its zone (`Z` or an offset); default now. At most one billing period in the past and at most 5 years ahead.',
    example: '2027-02-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateTimeWithZone()
  startAt?: string;

  @ApiPropertyOptional({ type: String, maxLength: 64, default: 'UTC', description: 'IANA time zone in which billing days are counted.', example: 'Europe/Moscow' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ type: String, pattern: COUPON_CODE_PATTERN, description: "A coupon's code, in any case: its discount applies from the first period charge (422 when it cannot be used).", example: 'SPRING50' })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(COUPON_CODE_PATTERN), { message: 'couponCode must be 3..32 of A-Z, 0-9, _ and -' })
  couponCode?: string;

  @ApiMetadataProperty()
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
