import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { Page } from '../common/http/pagination';
import { PlansService } from '../plans/plans.service';
import type { SubscriptionDiscount } from '../subscriptions/subscription.entity';
import { Coupon } from './coupon.entity';
import { CouponsRepository } from './coupons.repository';
import { CreateCouponDto } from './create-coupon.dto';
import { ListCouponsQueryDto } from './list-coupons-query.dto';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Who a coupon is being applied to, in the transaction that applies it. */
export interface RedemptionTarget {
  subscriptionId: string;
  customerId: string;
  plan: { id: string; currency: string };
}

/** Coupons and their redemption: the rules of the admin API's section Coupons. The counters are this module's alone. */
@Injectable()
export class CouponsService {
  constructor(
    private readonly coupons: CouponsRepository,
    private readonly plans: PlansService,
    private readonly clock: Clock,
  ) {}

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers the coupon made with it. */
  async create(dto: CreateCouponDto, reservedId?: string): Promise<Coupon> {
    const made = reservedId === undefined ? null : await this.coupons.findById(reservedId);
    if (made) return made;
    if ((dto.percentOff === undefined) === (dto.amountOff === undefined)) throw invalidField('percentOff', 'exactly one of percentOff and amountOff must be given');
    if (dto.amountOff !== undefined && dto.currency === undefined) throw invalidField('currency', 'currency is required with amountOff');
    if (dto.amountOff === undefined && dto.currency !== undefined) throw invalidField('currency', 'currency goes only with amountOff (a percentage applies in any currency)');
    if (dto.duration === 'repeating' && dto.durationPeriods === undefined) throw invalidField('durationPeriods', 'durationPeriods is required with duration repeating');
    if (dto.duration !== 'repeating' && dto.durationPeriods !== undefined) throw invalidField('durationPeriods', 'durationPeriods goes only with duration repeating');
    const plans = dto.appliesToPlans ? [...new Set(dto.appliesToPlans)] : null;
    if (plans) {
      const known = new Set((await this.plans.getMany(plans)).map((p) => p.id));
      const unknown = plans.find((id) => !known.has(id));
      if (unknown) throw invalidField('appliesToPlans', `appliesToPlans names no plan ${unknown}`);
    }
    const now = this.clock.now();
    const coupon = await this.coupons.insert({
      id: reservedId ?? randomUUID(),
      code: dto.code ? dto.code.toUpperCase() : madeUpCode(),
      name: dto.name,
      percentOff: dto.percentOff ?? null,
      amountOff: dto.amountOff ?? null,
      currency: dto.currency ?? null,
      duration: dto.duration,
      durationPeriods: dto.durationPeriods ?? null,
      appliesToPlans: plans,
      maxRedemptions: dto.maxRedemptions ?? null,
      redeemBy: dto.redeemBy ? new Date(dto.redeemBy) : null,
      firstTimeOnly: dto.firstTimeOnly ?? false,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
    if (!coupon) throw invalidField('code', `code ${dto.code?.toUpperCase()} is taken by another coupon`);
    return coupon;
  }

  list(query: ListCouponsQueryDto): Promise<Page<Coupon>> {
    return this.coupons.page(query);
  }

  async get(id: string): Promise<Coupon> {
    const coupon = await this.coupons.findById(id);
    if (!coupon) throw new NotFoundException(`coupon ${id} not found`);
    return coupon;
  }

  /** No new subscription may use it from now on; those that have it keep it. Archiving an archived coupon changes nothing. */
  async archive(id: string): Promise<Coupon> {
    await this.get(id);
    await this.coupons.archive(id, this.clock.now());
    return this.get(id);
  }

  /**
   * Applies the coupon named `code` to a subscription in the caller's transaction (which writes the discount): checks
   * it can be used there (422 `coupon_invalid`, `coupon_not_applicable`, `first_time_only`), then counts the
   * redemption with a conditional increment (422 `coupon_exhausted` once the cap is reached, exact across replicas).
   * Answers the discount as the subscription keeps it.
   */
  async redeem(em: EntityManager, code: string, target: RedemptionTarget, now: Date): Promise<SubscriptionDiscount> {
    const coupon = await this.coupons.findByCode(code.toUpperCase(), em);
    if (!coupon || coupon.status !== 'active') throw refused('coupon_invalid', `no active coupon has the code ${code.toUpperCase()}`);
    if (coupon.redeemBy && coupon.redeemBy.getTime() < now.getTime()) throw refused('coupon_invalid', `coupon ${coupon.code} could be redeemed until ${coupon.redeemBy.toISOString()}`);
    if (coupon.appliesToPlans && !coupon.appliesToPlans.includes(target.plan.id)) throw refused('coupon_not_applicable', `coupon ${coupon.code} does not apply to plan ${target.plan.id}`);
    if (coupon.currency !== null && coupon.currency !== target.plan.currency) {
      throw refused('coupon_not_applicable', `coupon ${coupon.code} takes ${coupon.currency} off; the plan bills ${target.plan.currency}`);
    }
    if (coupon.firstTimeOnly && (await this.coupons.hasPaid(em, target.customerId))) throw refused('first_time_only', `coupon ${coupon.code} is for customers who have never paid; this one has`);
    if (!(await this.coupons.redeem(em, { couponId: coupon.id, subscriptionId: target.subscriptionId, customerId: target.customerId }, now))) {
      throw refused('coupon_exhausted', `coupon ${coupon.code} was redeemed its ${coupon.maxRedemptions} times`);
    }
    return {
      couponId: coupon.id,
      code: coupon.code,
      percentOff: coupon.percentOff,
      amountOff: coupon.amountOff,
      currency: coupon.currency,
      appliesToPlans: coupon.appliesToPlans,
      periodsLeft: coupon.duration === 'forever' ? null : coupon.duration === 'once' ? 1 : (coupon.durationPeriods as number),
    };
  }
}

function refused(code: 'coupon_invalid' | 'coupon_exhausted' | 'coupon_not_applicable' | 'first_time_only', message: string): UnprocessableEntityException {
  return withErrorCode(new UnprocessableEntityException(message), code, { field: 'couponCode' });
}

/** A code for a coupon made without one: 10 letters and digits that cannot be misread (no O/0, I/1). */
function madeUpCode(): string {
  return Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}
