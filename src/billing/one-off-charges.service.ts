import { ConflictException, Inject, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { Clock } from '../common/clock/clock';
import { invalidField, withErrorCode } from '../common/errors/coded-error';
import { AppConfig } from '../config/app-config';
import { CustomersService } from '../customers/customers.service';
import { PendingItem } from '../pending-items/pending-item.entity';
import { PendingItemsService } from '../pending-items/pending-items.service';
import { Plan } from '../plans/plan.entity';
import { MAX_AMOUNT } from '../plans/plan-validation';
import { PlansService } from '../plans/plans.service';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { WorkRunnerService } from '../work/work-runner.service';
import { CHARGES_QUEUE } from './billing-scheduler.service';
import { Charge } from './charge.entity';
import { ChargeAttempt } from './charge-attempt.entity';
import { ChargeAttemptsRepository } from './charge-attempts.repository';
import { ChargeProcessorService } from './charge-processor.service';
import { CHARGE_QUEUE, ChargeQueue } from './charge-queue';
import { ChargesRepository } from './charges.repository';
import { CreateOneOffChargeDto } from './create-one-off-charge.dto';
import { oneOffInvoiceExternalId } from './external-ids';
import { CartLine, cartTotal, MAX_CART_LINES } from './invoice-cart';
import { OneOffChargesRepository } from './one-off-charges.repository';

/** What `POST /customers/:id/charges` made or found: a one-off charge (`now`) or a pending item (`next_renewal`). */
export type OneOffResult = { charge: Charge; attempts: ChargeAttempt[]; created: boolean } | { item: PendingItem; created: boolean };

/** Statuses whose subscription will make another period charge (a paused one when it is resumed). */
const RENEWING = new Set(['incomplete', 'trialing', 'active', 'past_due', 'paused']);

/**
 * Money outside the schedule on the card a customer already bound. `now`: a charge of kind `one_off`, made and worked
 * at once through the same engine as every charge (intent first, stable externalID, the credit balance applied in the
 * transaction that makes it); `next_renewal`: a pending item the subscription's next period charge carries. A request
 * runs once: its reference (or the id its Idempotency-Key reserved) names what it made, and a repeat answers that.
 */
@Injectable()
export class OneOffChargesService {
  constructor(
    private readonly oneOffs: OneOffChargesRepository,
    private readonly charges: ChargesRepository,
    private readonly attempts: ChargeAttemptsRepository,
    private readonly pendingItems: PendingItemsService,
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly plans: PlansService,
    private readonly balances: BalancesService,
    private readonly processor: ChargeProcessorService,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
    private readonly runner: WorkRunnerService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers what it made. */
  async create(customerIdAsGiven: string, dto: CreateOneOffChargeDto, reservedId?: string): Promise<OneOffResult> {
    // Stored ids are lower case; a path may spell one in upper case.
    const customerId = customerIdAsGiven.toLowerCase();
    const made = reservedId === undefined ? null : await this.madeWith(customerId, reservedId);
    if (made) return made;
    const customer = await this.customers.findStanding(customerId);
    if (!customer) throw withErrorCode(new NotFoundException(`No customer ${customerId}`), 'not_found');
    const lines = this.linesOf(dto);
    const when = dto.when ?? 'now';
    if (when === 'next_renewal' && dto.subscriptionId === undefined) {
      throw invalidField('subscriptionId', 'subscriptionId is required with when: next_renewal (the subscription whose next period charge carries the lines)');
    }
    const subscription = dto.subscriptionId === undefined ? null : await this.subscriptionOf(customerId, dto.subscriptionId);
    const plan = subscription && (await this.plans.get(subscription.planId));
    if (plan && plan.currency !== dto.currency) {
      throw withErrorCode(new UnprocessableEntityException(`currency ${dto.currency} is not the subscription's (${plan.currency})`), 'business_rule', { field: 'currency' });
    }
    if (when === 'now') {
      if (customer.status !== 'ready') {
        throw withErrorCode(new ConflictException(`Customer ${customerId} has no card to charge yet: bind one, or add the lines to a subscription's next renewal`), 'customer_not_ready');
      }
      if (subscription?.status === 'canceled') throw withErrorCode(new ConflictException(`Subscription ${subscription.id} is canceled`), 'state_conflict', { field: 'subscriptionId' });
    } else {
      await this.checkRenewal(subscription as Subscription, plan as Plan, lines);
    }
    const id = reservedId ?? randomUUID();
    const now = this.clock.now();
    const result = await this.charges.transaction(async (em): Promise<OneOffResult | { chargeId: string }> => {
      if (dto.reference !== undefined) {
        await this.oneOffs.lockReference(em, dto.reference);
        const existing = await this.existing(em, customerId, dto, lines, dto.reference);
        if (existing) return existing;
      }
      const common = { id, customerId, currency: dto.currency, lines, amount: cartTotal(lines), description: dto.description ?? null, reference: dto.reference ?? null };
      if (subscription && when === 'next_renewal') {
        const item = await this.pendingItems.add(em, { ...common, subscriptionId: subscription.id, source: 'merchant' }, now);
        if (!item) throw new Error(`Pending item ${id} could not be added`);
        return { item, created: true };
      }
      const externalId = oneOffInvoiceExternalId(id, dto.reference ?? null);
      if (!(await this.oneOffs.insert(em, { ...common, subscriptionId: subscription?.id ?? null, invoiceExternalId: externalId, dueAt: now }, now))) {
        throw new Error(`One-off charge ${id} (${externalId}) could not be added`);
      }
      const paid = await this.balances.applyToCharge(em, { id, customerId, currency: dto.currency, amount: common.amount, subscriptionId: subscription?.id ?? null }, now);
      if (paid > 0) await this.charges.recordPaidFromBalance(em, id, paid, now);
      return { chargeId: id };
    });
    if (!('chargeId' in result)) return result;
    return { ...(await this.workNow(result.chargeId)), created: true };
  }

  /** What an earlier run of the same Idempotency-Key made for this customer, worked on if it is still waiting. */
  private async madeWith(customerId: string, reservedId: string): Promise<OneOffResult | null> {
    const charge = await this.oneOffs.findOne({ id: reservedId });
    if (charge?.customerId === customerId) return { ...(await this.workNow(charge.id)), created: true };
    const item = await this.pendingItems.findById(reservedId);
    return item?.customerId === customerId ? { item, created: true } : null;
  }

  /**
   * Works the charge now, in this request, when it is due and nobody holds it (else the engine's loop does), and
   * answers it as it is then: usually settled, or at the provider.
   */
  private async workNow(chargeId: string): Promise<{ charge: Charge; attempts: ChargeAttempt[] }> {
    const [claim] = await this.queue.claim(1, { dueAt: this.clock.now(), onlyId: chargeId });
    if (claim) await this.processor.process(claim);
    else this.runner.kick(CHARGES_QUEUE);
    const charge = await this.oneOffs.findOne({ id: chargeId });
    if (!charge) throw new Error(`One-off charge ${chargeId} is missing`);
    return { charge, attempts: await this.attempts.ofCharge(chargeId) };
  }

  /** The lines as given, quantity 1 when absent; a rate that is not in force is a 400 naming the line. */
  private linesOf(dto: CreateOneOffChargeDto): CartLine[] {
    return dto.lines.map((line, index) => {
      if (line.taxRate !== undefined && !this.config.taxRates.includes(line.taxRate)) {
        throw invalidField(`lines.${index}.taxRate`, `lines.${index}.taxRate must be one of the VAT rates in force (BILLING_TAX_RATES): ${this.config.taxRates.join(', ')}`);
      }
      return { product: line.product, price: line.price, quantity: line.quantity ?? 1, ...(line.taxRate !== undefined ? { taxRate: line.taxRate } : {}) };
    });
  }

  private async subscriptionOf(customerId: string, subscriptionId: string): Promise<Subscription> {
    const [subscription] = await this.subscriptions.getMany([subscriptionId]);
    if (subscription?.customerId !== customerId) {
      throw withErrorCode(new NotFoundException(`subscriptionId ${subscriptionId} names no subscription of customer ${customerId}`), 'not_found', { field: 'subscriptionId' });
    }
    return subscription;
  }

  /**
   * An item waits for a renewal that will come, and must fit on that charge's invoice beside the plan's lines (the
   * provider's 100 lines, MAX_AMOUNT in all). Items that fit alone but not together wait for the renewals after.
   */
  private async checkRenewal(subscription: Subscription, plan: Plan, lines: CartLine[]): Promise<void> {
    if (!RENEWING.has(subscription.status) || subscription.cancelAtPeriodEnd) {
      const why = subscription.cancelAtPeriodEnd ? 'set to cancel at its period end' : subscription.status;
      throw withErrorCode(new ConflictException(`Subscription ${subscription.id} is ${why}: no renewal will carry the item; charge it now instead`), 'state_conflict', {
        field: 'subscriptionId',
      });
    }
    const next = subscription.pendingChange ? await this.plans.get(subscription.pendingChange.planId) : plan;
    const quantity = subscription.pendingChange?.quantity ?? subscription.quantity;
    const tooLong = Math.max(plan.lines.length, next.lines.length) + lines.length > MAX_CART_LINES;
    const tooMuch = Math.max(plan.amount * subscription.quantity, next.amount * quantity) + cartTotal(lines) > MAX_AMOUNT;
    if (tooLong || tooMuch) {
      const limit = tooLong ? `${MAX_CART_LINES} cart lines` : `${MAX_AMOUNT} minor units`;
      throw withErrorCode(new UnprocessableEntityException(`lines would take the renewal's invoice past ${limit} with the plan's own; charge them now instead`), 'business_rule', {
        field: 'lines',
      });
    }
  }

  /**
   * What `reference` names already, if anything: answered when the request's body is the one it was made with (a
   * repeat), 409 `charge_reference_taken` otherwise. One-off charges and pending items share the references.
   */
  private async existing(em: EntityManager, customerId: string, dto: CreateOneOffChargeDto, lines: CartLine[], reference: string): Promise<OneOffResult | null> {
    const same = (o: { customerId: string; currency: string; lines: unknown; description: string | null; subscriptionId: string | null }) =>
      o.customerId === customerId && o.currency === dto.currency && isDeepStrictEqual(o.lines, lines) && o.description === (dto.description ?? null) && o.subscriptionId === (dto.subscriptionId?.toLowerCase() ?? null);
    const when = dto.when ?? 'now';
    const charge = await this.oneOffs.findOne({ reference }, em);
    if (charge) {
      if (when === 'now' && same(charge)) return { charge, attempts: await this.attempts.ofCharge(charge.id, em), created: false };
      throw referenceTaken(reference, { chargeId: charge.id });
    }
    const item = await this.pendingItems.findByReference(em, reference);
    if (item) {
      if (when === 'next_renewal' && item.source === 'merchant' && same(item)) return { item, created: false };
      throw referenceTaken(reference, { pendingItemId: item.id });
    }
    return null;
  }
}

function referenceTaken(reference: string, taken: { chargeId: string } | { pendingItemId: string }): ConflictException {
  const what = 'chargeId' in taken ? `one-off charge ${taken.chargeId}` : `pending item ${taken.pendingItemId}`;
  const exception = withErrorCode(new ConflictException([`reference ${reference} is taken by ${what}, made with another body`]), 'charge_reference_taken', { field: 'reference' });
  Object.assign(exception.getResponse() as object, taken);
  return exception;
}
