import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import type { PlanStatus } from './plan.entity';

/** `GET /api/v1/plans?status=&limit=&cursor=`. */
export class ListPlansQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'archived'], description: 'Only plans in this status.' })
  @IsOptional()
  @IsIn(['active', 'archived'])
  status?: PlanStatus;
}
