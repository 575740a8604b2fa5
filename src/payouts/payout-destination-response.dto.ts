import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiMetadataAnswer, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import type { PayoutDestinationStatus } from './payout-destination.entity';

/** Documentation of a payout destination: the card's non-secret details, never its number or token. */
@ApiSchema({ name: 'PayoutDestination' })
export class PayoutDestinationResponseDto {
  @ApiIdProperty('The destination id.')
  id: string;

  @ApiNullableText("The destination's id at the provider, once created there.", '3')
  providerDestinationId: string | null;

  @ApiProperty({
    enum: ['creating', 'Unauthorized', 'Authorized', 'failed'],
    description: '`Unauthorized` until the provider authorizes the card (payouts wait), then `Authorized`; `failed`: it could not be created.',
    example: 'Authorized',
  })
  status: PayoutDestinationStatus;

  @ApiProperty({ example: 'Courier 17' })
  name: string;

  @ApiCurrencyProperty()
  currency: string;

  @ApiNullableText('First six digits of the card.', '424242')
  bin: string | null;

  @ApiNullableText('Last four digits of the card.', '4242')
  lastDigits: string | null;

  @ApiNullableText("The card's payment system.", 'visa')
  paymentSystem: string | null;

  @ApiMetadataAnswer()
  metadata: Record<string, unknown>;

  @ApiTimeProperty('When the provider authorized it.', { nullable: true })
  authorizedAt: string | null;

  @ApiTimeProperty('When it was created.')
  createdAt: string;
}
