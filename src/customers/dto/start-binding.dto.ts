import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** POST /api/v1/customers/:id/bindings: the result of tokenizing a card in the merchant's own form. */
@ApiSchema({ name: 'StartBinding' })
export class StartBindingDto {
  @ApiProperty({ minLength: 1, maxLength: 2000, description: "The card token your own card form got from the provider's tokenization.", example: 'eyJwYXltZW50VG9vbCI6InRva2VuIn0' })
  @IsString()
  @Length(1, 2000)
  paymentToolToken: string;

  @ApiProperty({ minLength: 1, maxLength: 1000, description: 'The payment session that came with the token.', example: 'c2Vzc2lvbi0xMjM0' })
  @IsString()
  @Length(1, 1000)
  paymentSession: string;
}
