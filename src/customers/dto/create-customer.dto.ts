import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsMetadata } from '../../common/http/validators';

/** POST /api/v1/customers. Every field is optional: the provider only needs a shop. */
export class CreateCustomerDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  /** The provider's ContactInfo rule: a plus sign and 4..15 digits. */
  @IsOptional()
  @IsString()
  @Matches(/^\+\d{4,15}$/, { message: 'phone must be a plus sign followed by 4 to 15 digits, e.g. +79991234567' })
  phone?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @Length(1, 40)
  shopId?: string;
}
