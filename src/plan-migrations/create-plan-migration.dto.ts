import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { OptionalNotNull } from '../common/http/validators';

export const DEFAULT_NOTICE_DAYS = 30;

/** POST /plans/{id}/migrations: moves the plan's subscribers to another plan at a renewal at least the notice ahead. */
@ApiSchema({ name: 'CreatePlanMigration' })
export class CreatePlanMigrationDto {
  @ApiProperty({ format: 'uuid', description: 'The plan to move the subscribers to: same currency and shop, not archived.', example: '9a1c6a0e-3f44-4b3a-9a5e-2d5f0e7b8c11' })
  @IsUUID('all', { message: 'toPlanId must be a plan id (a UUID)' })
  toPlanId: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 90, default: DEFAULT_NOTICE_DAYS, description: 'Each subscription moves at its first renewal at least this many days ahead (calendar days in its zone).' })
  @OptionalNotNull()
  @IsInt({ message: 'noticeDays must be an integer from 0 to 90' })
  @Min(0, { message: 'noticeDays must be an integer from 0 to 90' })
  @Max(90, { message: 'noticeDays must be an integer from 0 to 90' })
  noticeDays?: number;

  @ApiPropertyOptional({ enum: ['keep'], default: 'keep', description: 'What the quantity becomes: `keep` (each subscription keeps its own).' })
  @OptionalNotNull()
  @IsIn(['keep'], { message: 'quantityRule must be keep' })
  quantityRule?: 'keep';
}
