import { Body, Controller, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { Page } from '../common/http/pagination';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePlanDto } from './create-plan.dto';
import { ListPlansQueryDto } from './list-plans-query.dto';
import { PlanResponse, toPlanResponse } from './plan-response';
import type { Plan } from './plan.entity';
import { PlanResponseDto } from './plan-response.dto';
import { PlansService } from './plans.service';
import { UpdatePlanDto } from './update-plan.dto';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

/** Admin API, section Plans. */
@ApiTags('Plans')
@Controller('api/v1/plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @ApiAdminRoute({ summary: 'Create a plan', description: 'Prices, lines, currency and interval never change on a plan: a new price is a new plan.', body: true, idempotent: true })
  @ApiCreatedResponse({ type: PlanResponseDto })
  @RequiresScope('plans:write')
  @Post()
  async create(@Body() dto: CreatePlanDto, @ReservedId() reservedId?: string): Promise<PlanResponse> {
    return this.view(await this.plans.create(dto, reservedId));
  }

  @ApiAdminRoute({ summary: 'List plans', errors: ['validation_failed'] })
  @ApiPageResponse(PlanResponseDto)
  @RequiresScope('plans:read')
  @Get()
  async list(@Query() query: ListPlansQueryDto): Promise<Page<PlanResponse>> {
    const page = await this.plans.list(query);
    return { items: page.items.map((p) => this.view(p)), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a plan', id: 'plan' })
  @ApiOkResponse({ type: PlanResponseDto })
  @RequiresScope('plans:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PlanResponse> {
    return this.view(await this.plans.get(id));
  }

  @ApiAdminRoute({ summary: 'Change a plan', description: 'Only `name`, `description`, `dunning` and `metadata`; any other field is refused (400).', id: 'plan', body: true })
  @ApiOkResponse({ type: PlanResponseDto })
  @RequiresScope('plans:write')
  @Patch(':id')
  async update(@Param('id', UUID_PARAM) id: string, @Body() dto: UpdatePlanDto): Promise<PlanResponse> {
    return this.view(await this.plans.update(id, dto));
  }

  @ApiAdminRoute({ summary: 'Archive a plan', description: 'No new subscriptions from now on; existing ones go on. Archiving an archived plan changes nothing.', id: 'plan', body: true, idempotent: true })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: PlanResponseDto })
  @RequiresScope('plans:write')
  @Post(':id/archive')
  @HttpCode(HttpStatus.OK)
  async archive(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<PlanResponse> {
    return this.view(await this.plans.archive(id));
  }

  /** The plan with its effective dunning. */
  private view(plan: Plan): PlanResponse {
    return toPlanResponse(plan, this.plans.effectiveDunning(plan), this.plans.taxRatesCurrent(plan));
  }
}
