import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { ApiAmountProperty, ApiCurrencyProperty, ApiIdProperty, ApiMetadataProperty } from '../common/api-docs/api-properties';
import { IsMetadata } from '../common/http/validators';
import { PAYOUT_REFERENCE_PATTERN } from './payout-reference';

const REFERENCE_MESSAGE = 'reference must be 1..64 letters, digits and ._:- (^[A-Za-z0-9._:-]{1,64}$)';
const AMOUNT_MESSAGE = 'amount must be a whole number of minor units, at least 1';

/** POST /api/v1/payouts, and one item of a batch. */
@ApiSchema({ name: 'CreatePayout' })
export class CreatePayoutDto {
  @ApiIdProperty('The payout destination (a card) to pay to.')
  @IsUUID('all', { message: 'destinationId must be the id of a payout destination (a UUID)' })
  destinationId: string;

  @ApiAmountProperty('Minor units.')
  @IsInt({ message: AMOUNT_MESSAGE })
  @Min(1, { message: AMOUNT_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: AMOUNT_MESSAGE })
  amount: number;

  @ApiCurrencyProperty("The payout wallet's currency.")
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as RUB (^[A-Z]{3}$)' })
  currency: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 64,
    pattern: PAYOUT_REFERENCE_PATTERN.source,
    description:
      'Your own unique name for this payout. The same reference with the same body answers the existing payout (200); with another body, 409 `payout_reference_taken`. Only a payout with a reference is safe to submit again after the database was restored to an earlier point: it meets the withdrawal the provider already made.',
    example: 'invoice-2027-0042',
  })
  @IsOptional()
  @IsString({ message: REFERENCE_MESSAGE })
  @Matches(PAYOUT_REFERENCE_PATTERN, { message: REFERENCE_MESSAGE })
  reference?: string;

  @ApiMetadataProperty()
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
