import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty } from '../../common/api-docs/api-properties';

/** Documentation of the answer to a binding start: the outcome follows later (GET the customer or its bindings). */
@ApiSchema({ name: 'BindingStarted' })
export class BindingStartedResponseDto {
  @ApiIdProperty('The binding id.')
  id: string;

  @ApiProperty({ enum: ['pending'], example: 'pending' })
  status: 'pending';
}
