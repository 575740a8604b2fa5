import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import type { AttemptStatus } from './charge-attempt.entity';

/** Documentation of one payment attempt of a charge. */
@ApiSchema({ name: 'ChargeAttempt' })
export class ChargeAttemptResponseDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the first attempt.', example: 1 })
  number: number;

  @ApiNullableText("The payment's id at the provider, once known.", '1')
  paymentId: string | null;

  @ApiProperty({
    enum: ['pending', 'unknown', 'processing', 'succeeded', 'declined'],
    description: '`unknown`: the provider did not answer in time; the attempt is replayed with the same id, never repeated afresh.',
    example: 'succeeded',
  })
  status: AttemptStatus;

  @ApiProperty({
    description: 'true for an attempt an operator asked for (POST /charges/{id}/retry) while the charge was being dunned: it is outside the ladder, never counts toward the attempts that end dunning and never moves the next scheduled one.',
    example: false,
  })
  manual: boolean;

  @ApiNullableText("The provider's decline code.", 'insufficientFunds')
  errorCode: string | null;

  @ApiTimeProperty('When it was attempted, on the billing clock.', { nullable: true })
  createdAt: string | null;
}
