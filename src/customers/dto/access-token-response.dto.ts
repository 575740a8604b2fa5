import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** Documentation of a newly issued customer access token. */
@ApiSchema({ name: 'CustomerAccessToken' })
export class AccessTokenResponseDto {
  @ApiProperty({ description: "For the provider's hosted payment form; answered here only, never stored.", example: 'eyJhbGciOiJSUzI1NiJ9.cHJvdmlkZXItdG9rZW4.c2lnbmF0dXJl' })
  customerAccessToken: string;

  @ApiPropertyOptional({
    description: 'Only with the built-in sandbox: its hosted binding form for this customer, authorised by this token.',
    example: 'http://127.0.0.1:8081/sandbox/hosted-form?customerID=2Zm9Uq1cJ8&customerAccessToken=eyJ…',
  })
  hostedFormUrl?: string;
}
