import { IsEmail, IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

export const MAX_METADATA_KEYS = 50;

/** A free-form JSON object (not an array, not null) with at most `max` top-level keys. */
function HasAtMostKeys(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasAtMostKeys',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length <= max,
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be an object with at most $constraint1 keys`, options),
      },
    },
    options,
  );
}

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
  @IsObject({ message: 'metadata must be a JSON object' })
  @HasAtMostKeys(MAX_METADATA_KEYS)
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @Length(1, 40)
  shopId?: string;
}
