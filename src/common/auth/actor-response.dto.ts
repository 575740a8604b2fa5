import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** Documentation of `actor`: who made a change. */
@ApiSchema({ name: 'Actor' })
export class ActorResponseDto {
  @ApiProperty({
    enum: ['admin_token', 'api_key', 'console', 'system'],
    description: 'Who made the change: the root ADMIN_TOKEN, an API key, the operator console, or the daemon itself (the scheduler, the work engine, provider events).',
    example: 'api_key',
  })
  type: 'admin_token' | 'api_key' | 'console' | 'system';

  @ApiPropertyOptional({ format: 'uuid', description: "The API key's id (an API key, or a console signed in with one).", example: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e' })
  id?: string;

  @ApiPropertyOptional({ description: "The API key's name.", example: 'storefront' })
  name?: string;
}
