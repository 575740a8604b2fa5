import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { COUPON_CODE_PATTERN } from './create-coupon.dto';

/** `POST /api/v1/subscriptions/:id/discount`. */
@ApiSchema({ name: 'ApplyCoupon' })
export class ApplyCouponDto {
  @ApiProperty({ type: String, pattern: COUPON_CODE_PATTERN, description: "A coupon's code, in any case.", example: 'SPRING50' })
  @IsString()
  @Matches(new RegExp(COUPON_CODE_PATTERN), { message: 'couponCode must be 3..32 of A-Z, 0-9, _ and -' })
  couponCode: string;
}
