import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';

/** One entry per check: its status, and on `down` the reason. */
const CHECK: { type: 'object'; additionalProperties: SchemaObject } = {
  type: 'object',
  additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } }, additionalProperties: true },
};

/** Documentation of the readiness answer (Terminus's report): one entry per check, with why it is down. */
@ApiSchema({ name: 'HealthReport' })
export class HealthReportDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], description: '`ok` when every check is up.', example: 'ok' })
  status: 'ok' | 'error' | 'shutting_down';

  @ApiPropertyOptional({ ...CHECK, description: 'The checks that are up.', example: { process: { status: 'up' }, database: { status: 'up' }, migrations: { status: 'up' } } })
  info?: Record<string, { status: 'up' | 'down' }>;

  @ApiPropertyOptional({ ...CHECK, description: 'The checks that are down, with the reason.', example: {} })
  error?: Record<string, { status: 'up' | 'down' }>;

  @ApiProperty({ ...CHECK, description: 'Every check: process (not shutting down), database (answers a ping), migrations (all applied).', example: { process: { status: 'up' }, database: { status: 'up' }, migrations: { status: 'up' } } })
  details: Record<string, { status: 'up' | 'down' }>;
}
