import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ApiMetadataProperty } from '../../common/api-docs/api-properties';
import { IsMetadata } from '../../common/http/validators';

/** POST /api/v1/customers. Every field is optional: the provider only needs a shop. */
@ApiSchema({ name: 'CreateCustomer' })
export class CreateCustomerDto {
  @ApiPropertyOptional({ type: String, format: 'email', maxLength: 100, example: 'payer@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  /** The provider's ContactInfo rule: a plus sign and 4..15 digits. */
  @ApiPropertyOptional({ type: String, pattern: '^\\+\\d{4,15}$', description: 'A plus sign and 4..15 digits.', example: '+79991234567' })
  @IsOptional()
  @IsString()
  @Matches(/^\+\d{4,15}$/, { message: 'phone must be a plus sign followed by 4 to 15 digits, e.g. +79991234567' })
  phone?: string;

  @ApiMetadataProperty('Your own data; also passed on to the provider with the customer.')
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ minLength: 1, maxLength: 40, description: "The provider's shop; default PROVIDER_SHOP_ID.", example: 'shop-1' })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  shopId?: string;
}
