import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty } from '../../common/api-docs/api-properties';
import { BindingInteractionResponseDto } from './binding-interaction-response.dto';

/** Documentation of the customer's newest binding still in progress. */
@ApiSchema({ name: 'PendingBinding' })
export class PendingBindingResponseDto {
  @ApiIdProperty('The binding id.')
  id: string;

  @ApiProperty({ enum: ['pending'], example: 'pending' })
  status: 'pending';

  @ApiProperty({ type: BindingInteractionResponseDto, nullable: true, description: 'Where to send the payer when the provider asks for 3-D Secure; null otherwise.' })
  interaction: BindingInteractionResponseDto | null;
}
