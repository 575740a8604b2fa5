import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiKeyResponseDto } from './api-key-response.dto';

/** Documentation of the one answer that shows the key. */
@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeyResponseDto extends ApiKeyResponseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key (`bk_` and the base64url of 32 random bytes), shown in this answer only: keep it, only its hash is stored. A replay of this request with its Idempotency-Key answers null.',
    example: 'bk_3q2-7wH1mJc0Zr5bXcYl0w8m4Gx0pTqv9l2a1cS9d0E',
  })
  key: string | null;
}
