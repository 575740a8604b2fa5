import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { StorableText } from '../../common/http/validators';
import type { CustomerStatus } from '../customer.entity';

const CUSTOMER_STATUSES: readonly CustomerStatus[] = ['unready', 'ready'];

/** `GET /api/v1/customers?q=&status=&createdAfter=&createdBefore=&limit=&cursor=`. */
export class ListCustomersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CUSTOMER_STATUSES, description: 'Only customers in this status.' })
  @IsOptional()
  @IsIn(CUSTOMER_STATUSES, { message: `status must be one of ${CUSTOMER_STATUSES.join(', ')}` })
  status?: CustomerStatus;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 200,
    description: "Search: a customer's id, the provider's customer id, or any part of the email (letter case ignored).",
  })
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'q must be 1..200 characters' })
  @StorableText()
  q?: string;
}
