import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../../common/api-docs/api-properties';
import { BindingInteractionResponseDto } from './binding-interaction-response.dto';
import { CardResponseDto } from './card-response.dto';

/** Documentation of one card binding attempt of a customer. */
@ApiSchema({ name: 'Binding' })
export class BindingResponseDto {
  @ApiIdProperty('The binding id.')
  id: string;

  @ApiIdProperty('The customer it binds a card to.')
  customerId: string;

  @ApiNullableText("The binding's id at the provider, once known.", '2Zm9Uq1cJ9')
  providerBindingId: string | null;

  @ApiProperty({ enum: ['api', 'hosted_form'], description: '`api`: started with POST .../bindings; `hosted_form`: found in the provider\'s events.', example: 'hosted_form' })
  source: 'api' | 'hosted_form';

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' })
  status: 'pending' | 'succeeded' | 'failed';

  @ApiNullableText("The provider's error code when the binding failed.", 'insufficientFunds')
  errorCode: string | null;

  @ApiProperty({ type: CardResponseDto, nullable: true, description: 'The card, once the provider told it.' })
  card: CardResponseDto | null;

  @ApiProperty({ type: BindingInteractionResponseDto, nullable: true, description: 'While pending: where to send the payer when the provider asks for 3-D Secure; null otherwise.' })
  interaction: BindingInteractionResponseDto | null;

  @ApiTimeProperty('When the binding was started or found.')
  createdAt: string;

  @ApiTimeProperty('When the binding last changed.')
  updatedAt: string;
}
