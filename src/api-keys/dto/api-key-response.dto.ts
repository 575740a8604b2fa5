import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ActorResponseDto } from '../../common/auth/actor-response.dto';
import { SCOPES } from '../../common/auth/scopes';
import { ApiIdProperty, ApiTimeProperty } from '../../common/api-docs/api-properties';

/** Documentation of an API key as the admin API answers it (api-key-response.ts); never the key itself. */
@ApiSchema({ name: 'ApiKey' })
export class ApiKeyResponseDto {
  @ApiIdProperty('The key id.')
  id: string;

  @ApiProperty({ description: 'What the key is for.', example: 'storefront' })
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, description: 'What it may do.', example: ['customers:write', 'subscriptions:write'] })
  scopes: string[];

  @ApiTimeProperty('When it was made.')
  createdAt: string;

  @ApiTimeProperty('When it stops working; null: never.', { nullable: true })
  expiresAt: string | null;

  @ApiTimeProperty('When it was last used, to the minute (written at most once a minute); null: never.', { nullable: true })
  lastUsedAt: string | null;

  @ApiTimeProperty('When it was revoked; null: it was not.', { nullable: true })
  revokedAt: string | null;

  @ApiProperty({ type: ActorResponseDto, description: 'Who made it.' })
  createdBy: ActorResponseDto;
}
