import { Body, Controller, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { Page } from '../common/http/pagination';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePlanDto } from './create-plan.dto';
import { ListPlansQueryDto } from './list-plans-query.dto';
import { PlanResponse, toPlanResponse } from './plan-response';
import { PlansService } from './plans.service';
import { UpdatePlanDto } from './update-plan.dto';

/** Admin API, section Plans. */
@Controller('api/v1/plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Post()
  async create(@Body() dto: CreatePlanDto): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.create(dto));
  }

  @Get()
  async list(@Query() query: ListPlansQueryDto): Promise<Page<PlanResponse>> {
    const page = await this.plans.list(query);
    return { items: page.items.map(toPlanResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.get(id));
  }

  @Patch(':id')
  async update(@Param('id', UUID_PARAM) id: string, @Body() dto: UpdatePlanDto): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.update(id, dto));
  }

  @Post(':id/archive')
  @HttpCode(HttpStatus.OK)
  async archive(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto): Promise<PlanResponse> {
    return toPlanResponse(await this.plans.archive(id));
  }
}
