import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlansModule } from '../plans/plans.module';
import { Coupon } from './coupon.entity';
import { CouponRedemption } from './coupon-redemption.entity';
import { CouponsController } from './coupons.controller';
import { CouponsRepository } from './coupons.repository';
import { CouponsService } from './coupons.service';

/** Coupons and their redemption counters; the subscriptions module keeps the discount a subscription has. */
@Module({
  imports: [TypeOrmModule.forFeature([Coupon, CouponRedemption]), PlansModule],
  controllers: [CouponsController],
  providers: [CouponsRepository, CouponsService],
  exports: [CouponsService],
})
export class CouponsModule {}
