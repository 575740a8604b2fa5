import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../common/http/list-query.dto';
import type { CouponStatus } from './coupon.entity';

/** `GET /api/v1/coupons?status=&limit=&cursor=`. */
export class ListCouponsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'archived'], description: 'Only coupons in this status.' })
  @IsOptional()
  @IsIn(['active', 'archived'])
  status?: CouponStatus;
}
