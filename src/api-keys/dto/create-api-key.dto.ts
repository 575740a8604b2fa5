import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { Scope, SCOPES } from '../../common/auth/scopes';
import { IsDateTimeWithZone } from '../../common/http/date-time.validator';
import { OptionalNotNull, StorableText } from '../../common/http/validators';

/** POST /api/v1/api-keys. */
@ApiSchema({ name: 'CreateApiKey' })
export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'What the key is for; events and audit entries name it.', example: 'storefront' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @StorableText()
  name: string;

  @ApiProperty({
    enum: SCOPES,
    isArray: true,
    minItems: 1,
    maxItems: SCOPES.length,
    uniqueItems: true,
    description: '`<resource>:read` or `<resource>:write` (write implies read), or `admin` (every scope). At most the scopes of the credential that makes it.',
    example: ['customers:write', 'subscriptions:write'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `each value in scopes must be one of: ${SCOPES.join(', ')}` })
  scopes: Scope[];

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'When the key stops working (in the future); never when absent.', example: '2027-01-01T00:00:00Z' })
  @OptionalNotNull()
  @IsDateTimeWithZone()
  expiresAt?: string;
}
