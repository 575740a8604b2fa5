import { ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { ApiAmountProperty, ApiCurrencyProperty, ApiIdProperty, ApiMetadataProperty } from '../common/api-docs/api-properties';
import { IsMetadata } from '../common/http/validators';

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

  @ApiMetadataProperty()
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
