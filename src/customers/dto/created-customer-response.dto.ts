import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CustomerResponseDto } from './customer-response.dto';

/** Documentation of the creation answer: the only place the customer access token appears. */
@ApiSchema({ name: 'CreatedCustomer' })
export class CreatedCustomerResponseDto extends CustomerResponseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "What the merchant hands to the provider's hosted payment form to bind a card. Answered once and never stored: a replay of the same Idempotency-Key answers null.",
    example: 'eyJhbGciOiJSUzI1NiJ9.cHJvdmlkZXItdG9rZW4.c2lnbmF0dXJl',
  })
  customerAccessToken: string | null;

  @ApiProperty({ description: 'How to get a new token whenever this one is lost or expired.', example: 'POST /api/v1/customers/1b4e28ba-2fa1-4d3b-883f-0016d3cca427/access-token' })
  customerAccessTokenRenewal: string;
}
