import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimeProperty } from '../common/api-docs/api-properties';

@ApiSchema({ name: 'PlanMigrationCounts' })
export class PlanMigrationCountsDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Subscriptions given a pending change to the new plan (and one subscription.price_change_upcoming each) so far.', example: 9870 })
  scheduled: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Subscriptions left alone: a change of their own was pending, or they end at their period end.', example: 130 })
  skipped: number;
}

/** Documentation of a plan migration as the admin API answers it (plan-migration-response.ts builds it). */
@ApiSchema({ name: 'PlanMigration' })
export class PlanMigrationResponseDto {
  @ApiIdProperty('The migration id.')
  id: string;

  @ApiIdProperty('The plan whose subscribers move.')
  fromPlanId: string;

  @ApiIdProperty('The plan they move to.')
  toPlanId: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 90, description: 'Each subscription moves at its first renewal at least this many days after it is told.', example: 30 })
  noticeDays: number;

  @ApiProperty({ enum: ['keep'], description: 'What the quantity becomes.', example: 'keep' })
  quantityRule: 'keep';

  @ApiProperty({ enum: ['running', 'done'], description: '`running` while subscriptions are still being walked, in the background; `done` once every one was.', example: 'running' })
  status: 'running' | 'done';

  @ApiProperty({ type: PlanMigrationCountsDto })
  counts: PlanMigrationCountsDto;

  @ApiTimeProperty('When it was asked for (billing clock).')
  createdAt: string;

  @ApiTimeProperty('When the last subscription was walked (billing clock); null while running.', { nullable: true })
  completedAt: string | null;
}
