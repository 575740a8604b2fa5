import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePlanMigrationDto } from './create-plan-migration.dto';
import { PlanMigrationResponse, toPlanMigrationResponse } from './plan-migration-response';
import { PlanMigrationResponseDto } from './plan-migration-response.dto';
import { PlanMigrationsService } from './plan-migrations.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

/** Admin API, section Plans: moving a plan's subscribers to another plan with notice. */
@ApiTags('Plans')
@Controller('api/v1')
export class PlanMigrationsController {
  constructor(private readonly migrations: PlanMigrationsService) {}

  @ApiAdminRoute({
    summary: "Move a plan's subscribers to another plan",
    description:
      'Every active, trialing and past-due subscription of the plan made before now gets a pending change to `toPlanId` at its first renewal at least `noticeDays` ahead, and one `subscription.price_change_upcoming`. One with a change of its own pending, or set to end at its period end, is left alone and counted as skipped. Answered at once; the subscriptions are walked in the background (`GET /api/v1/plan-migrations/{id}`).',
    id: 'plan',
    body: true,
    idempotent: true,
    errors: ['business_rule'],
  })
  @ApiAcceptedResponse({ type: PlanMigrationResponseDto })
  @RequiresScope('admin')
  @Post('plans/:id/migrations')
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Param('id', UUID_PARAM) id: string, @Body() dto: CreatePlanMigrationDto, @ReservedId() reservedId?: string): Promise<PlanMigrationResponse> {
    return toPlanMigrationResponse(await this.migrations.create(id, dto, reservedId));
  }

  @ApiAdminRoute({ summary: 'Read a plan migration', description: 'Its progress: `status` and how many subscriptions were moved or left alone so far.', id: 'plan migration' })
  @ApiOkResponse({ type: PlanMigrationResponseDto })
  @RequiresScope('admin')
  @Get('plan-migrations/:id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PlanMigrationResponse> {
    return toPlanMigrationResponse(await this.migrations.get(id));
  }
}
