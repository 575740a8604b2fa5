import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiTimeProperty } from '../../common/api-docs/api-properties';
import { WebhookEndpointResponseDto } from './webhook-endpoint-response.dto';

/** Documentation of the answer that shows the signing secret: creation and rotation (and nowhere else). */
@ApiSchema({ name: 'CreatedWebhookEndpoint' })
export class CreatedWebhookEndpointResponseDto extends WebhookEndpointResponseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The signing secret (`whsec_` and the base64 of 32 random bytes), shown in this answer only: keep it. A replay of this request with its Idempotency-Key answers null.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwp5Mmu4ZE5Wc=',
  })
  secret: string | null;

  @ApiTimeProperty('After a rotation: until when deliveries are signed with the previous secret too.', { nullable: true })
  previousSecretExpiresAt: string | null;
}
