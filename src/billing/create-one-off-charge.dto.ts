import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, IsUUID, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ApiCurrencyProperty } from '../common/api-docs/api-properties';
import { OptionalNotNull, StorableText } from '../common/http/validators';
import { PAYOUT_REFERENCE_PATTERN } from '../payouts/payout-reference';
import { PlanLineDto } from '../plans/plan-line.dto';
import { LinesTotalAtMost, MAX_AMOUNT } from '../plans/plan-validation';

export const ONE_OFF_WHEN = ['now', 'next_renewal'] as const;
export type OneOffWhen = (typeof ONE_OFF_WHEN)[number];

const REFERENCE_MESSAGE = 'reference must be 1..64 letters, digits and ._:- (^[A-Za-z0-9._:-]{1,64}$)';

/** `POST /api/v1/customers/:id/charges`: a one-off charge now, or a pending item for a subscription's next renewal. */
@ApiSchema({ name: 'CreateOneOffCharge' })
export class CreateOneOffChargeDto {
  @ApiProperty({
    type: [PlanLineDto],
    minItems: 1,
    maxItems: 100,
    description: `The cart lines, as a plan's: each with its own VAT rate (one of BILLING_TAX_RATES); they add up to at most ${MAX_AMOUNT} minor units. Fixed with the charge: a repeat sends the same lines.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PlanLineDto)
  @LinesTotalAtMost(MAX_AMOUNT)
  lines: PlanLineDto[];

  @ApiCurrencyProperty("The charge's currency; with `subscriptionId`, the subscription's (422 otherwise).")
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of three capital letters, e.g. RUB' })
  currency: string;

  @ApiPropertyOptional({ maxLength: 1000, description: "The invoice's description (a one-off charge), or the item's (a pending item).", example: 'Onboarding session, 2 hours' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: "One of the customer's subscriptions. Required with `when: next_renewal` (its next period charge carries the lines); with `now`, the charge belongs to it (listed with its charges, dropped if it is canceled before the charge reaches the provider).",
    example: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e',
  })
  @OptionalNotNull()
  @IsUUID('all', { message: 'subscriptionId must be a subscription id (a UUID)' })
  subscriptionId?: string;

  @ApiPropertyOptional({
    enum: ONE_OFF_WHEN,
    default: 'now',
    description: "`now`: a charge of kind `one_off` is made at once on the customer's card (202); `next_renewal`: a pending item the subscription's next period charge carries as extra cart lines (201).",
    example: 'now',
  })
  @OptionalNotNull()
  @IsIn(ONE_OFF_WHEN)
  when?: OneOffWhen;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 64,
    pattern: PAYOUT_REFERENCE_PATTERN.source,
    description:
      'Your own unique name for this charge (or pending item). The same reference with the same body answers the existing one (200); with another body, 409 `charge_reference_taken`. Only a one-off with a reference is safe to send again after the database was restored to an earlier point: it meets the invoice the provider already holds.',
    example: 'order-2027-0042',
  })
  @OptionalNotNull()
  @IsString({ message: REFERENCE_MESSAGE })
  @Matches(PAYOUT_REFERENCE_PATTERN, { message: REFERENCE_MESSAGE })
  reference?: string;
}
