import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import type { CustomerStatus } from '../customer.entity';

const CUSTOMER_STATUSES: readonly CustomerStatus[] = ['unready', 'ready'];

/** `GET /api/v1/customers?status=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListCustomersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES, description: 'Only customers in this status.' })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES, { message: `status must be one of ${CUSTOMER_STATUSES.join(', ')}` })
  status?: CustomerStatus;
}
