import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** POST /console/session. */
@ApiSchema({ name: 'CreateConsoleSession' })
export class CreateConsoleSessionDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 1000, description: 'The ADMIN_TOKEN the daemon was started with, or an API key.', example: 'your-admin-token' })
  @IsString()
  @Length(1, 1000, { message: 'token must be the admin token or an API key (1..1000 characters)' })
  token: string;
}
