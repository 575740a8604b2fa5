import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** Documentation of what the provider asks of the payer before a binding can finish (3-D Secure). */
@ApiSchema({ name: 'BindingInteraction' })
export class BindingInteractionResponseDto {
  @ApiProperty({ enum: ['redirect'], example: 'redirect' })
  type: 'redirect';

  @ApiProperty({ enum: ['GET', 'POST'], description: 'How to send the payer\'s browser to `url`.', example: 'POST' })
  method: 'GET' | 'POST';

  @ApiProperty({ description: 'The 3-D Secure page (the card issuer\'s, or the sandbox\'s).', example: 'http://127.0.0.1:8081/sandbox/acs/9f2c' })
  url: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'With POST: the hidden form fields to post to `url`.',
    example: { PaReq: 'eJx…', MD: '9f2c', TermUrl: 'http://127.0.0.1:8081/sandbox/acs/9f2c/done' },
  })
  form?: Record<string, string>;
}
