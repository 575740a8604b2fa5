import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Documentation of the answer to a provider delivery. */
@ApiSchema({ name: 'ProviderWebhookReceipt' })
export class ProviderWebhookReceiptDto {
  @ApiProperty({ enum: [true], example: true })
  received: true;

  @ApiProperty({ description: 'True when this event had been received before: a repeat changes nothing.', example: false })
  duplicate: boolean;
}
