import { ConflictException, Injectable, NotFoundException, OnModuleInit, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { RefundableCharge, RefundableChargesService } from '../billing/refundable-charges.service';
import { Clock } from '../common/clock/clock';
import { SystemClock } from '../common/clock/system-clock';
import { withErrorCode } from '../common/errors/coded-error';
import { Page } from '../common/http/pagination';
import { EventsService } from '../events/events.service';
import { CreateRefundDto } from './create-refund.dto';
import { ListRefundsQueryDto } from './list-refunds-query.dto';
import { RefundMetricsService } from './refund-metrics.service';
import { refundExternalId } from './refund-identity';
import { toRefundResponse } from './refund-response';
import { RefundSchedulerService } from './refund-scheduler.service';
import { Refund, RefundDestination } from './refund.entity';
import { RefundsRepository, RefundTotals } from './refunds.repository';

/**
 * Accepts refunds of succeeded charges and answers them. A refund to the balance is made at once, in one transaction
 * with its balance entry and its event; a card refund is accepted `pending` and the processor makes it at the provider.
 * The sum a charge's refunds take is checked and the refund written under one lock per charge, so concurrent requests
 * on any replica never refund more than was paid.
 */
@Injectable()
export class RefundsService implements OnModuleInit {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly charges: RefundableChargesService,
    private readonly balances: BalancesService,
    private readonly events: EventsService,
    private readonly scheduler: RefundSchedulerService,
    private readonly metrics: RefundMetricsService,
    // Refunds have no calendar: their work runs on real time; the times the API shows are the billing clock's.
    private readonly clock: SystemClock,
    private readonly businessClock: Clock,
  ) {}

  /** Billing answers a charge's amountRefunded from here. */
  onModuleInit(): void {
    this.charges.answerRefundedWith((chargeIds) => this.refunds.refundedByCharge(chargeIds));
  }

  /**
   * Accepts a refund; `created` is false when its reference already names a refund asked for with the same request,
   * which is answered instead. `reservedId`: the id the request's Idempotency-Key reserved; a re-run of the key answers
   * the refund made with it.
   */
  async create(chargeId: string, dto: CreateRefundDto, reservedId?: string): Promise<{ refund: Refund; created: boolean }> {
    const made = reservedId === undefined ? null : await this.refunds.findById(reservedId);
    if (made) return { refund: made, created: true };
    const charge = await this.charges.find(chargeId);
    if (!charge) throw withErrorCode(new NotFoundException(`No charge ${chargeId}`), 'not_found');
    if (dto.reference !== undefined) {
      const existing = await this.refunds.findByReference(dto.reference);
      if (existing) return { refund: sameRequestOrConflict(existing, charge.id, dto), created: false };
    }
    let refund: Refund;
    try {
      refund = await this.refunds.transaction((em) => this.accept(em, charge, dto, reservedId ?? randomUUID()));
    } catch (error) {
      // Another request with this reference won the race: answer as if it had come first.
      if (dto.reference === undefined || !isReferenceTaken(error)) throw error;
      const existing = await this.refunds.findByReference(dto.reference);
      if (!existing) throw error;
      return { refund: sameRequestOrConflict(existing, charge.id, dto), created: false };
    }
    if (refund.destination === 'card') this.scheduler.kick();
    else this.metrics.refunds.inc({ to: 'balance', outcome: 'succeeded' });
    return { refund, created: true };
  }

  async get(id: string): Promise<Refund> {
    const refund = await this.refunds.findById(id);
    if (!refund) throw withErrorCode(new NotFoundException(`No refund ${id}`), 'not_found');
    return refund;
  }

  list(query: ListRefundsQueryDto): Promise<Page<Refund>> {
    return this.refunds.list(query);
  }

  /** Checks what is left to refund and writes the refund, under the charge's lock, in the caller's transaction. */
  private async accept(em: EntityManager, charge: RefundableCharge, dto: CreateRefundDto, id: string): Promise<Refund> {
    if (charge.status !== 'succeeded') {
      throw withErrorCode(new ConflictException(`Charge ${charge.id} is ${charge.status}: only a succeeded charge can be refunded`), 'charge_not_refundable');
    }
    await this.refunds.lockCharge(em, charge.id);
    const destination: RefundDestination = dto.to ?? 'card';
    const totals = await this.refunds.totalsOf(em, charge.id);
    const refundable = refundableOf(charge, totals, destination);
    const amount = dto.amount ?? refundable;
    if (amount <= 0 || amount > refundable) throw exceeds(charge, destination, dto.amount, refundable);

    const shownNow = this.businessClock.now();
    const number = totals.count + 1;
    const reference = dto.reference ?? null;
    const row: Refund = Object.assign(new Refund(), {
      id,
      chargeId: charge.id,
      customerId: charge.customerId,
      number,
      amount,
      currency: charge.currency,
      destination,
      reason: dto.reason ?? null,
      reference,
      // Counted among the card refunds only: a refund to the balance, never sent, has none and shifts no card refund's.
      externalId: destination === 'card' ? refundExternalId(charge.invoiceExternalId, totals.cardCount + 1, reference) : null,
      providerInvoiceId: charge.providerInvoiceId,
      providerPaymentId: null,
      cart: null,
      providerRefundId: null,
      failureCode: null,
      technicalFailures: 0,
      notBefore: null,
      submittedAt: null,
      createdAt: shownNow,
      updatedAt: shownNow,
      ...(destination === 'balance'
        ? { status: 'succeeded' as const, step: 'done' as const, nextAttemptAt: null, completedAt: shownNow }
        : { status: 'pending' as const, step: 'prepare' as const, nextAttemptAt: this.clock.now(), completedAt: null }),
    });
    await this.refunds.insert(em, row);
    if (destination === 'balance') {
      await this.balances.refund(em, { customerId: charge.customerId, currency: charge.currency, amount, refundId: id, chargeId: charge.id }, shownNow);
      await this.events.record(em, { type: 'refund.succeeded', data: { object: toRefundResponse(row) } });
    }
    return (await this.refunds.findById(id, em)) as Refund;
  }
}

/**
 * What can still be refunded `destination`'s way: never more than the charge's amount less every refund not failed;
 * to the card, besides, never more than the card paid (the amount less the balance's part) less the card's refunds.
 */
function refundableOf(charge: RefundableCharge, totals: RefundTotals, destination: RefundDestination): number {
  const overall = charge.amount - totals.all;
  if (destination === 'balance') return Math.max(0, overall);
  const paidByCard = charge.providerInvoiceId === null ? 0 : charge.amount - charge.paidFromBalance;
  return Math.max(0, Math.min(overall, paidByCard - totals.card));
}

function exceeds(charge: RefundableCharge, destination: RefundDestination, asked: number | undefined, refundable: number): UnprocessableEntityException {
  const what = asked === undefined ? 'Nothing is left' : `The refund of ${asked} exceeds what is left`;
  const balanceNote = destination === 'card' && charge.paidFromBalance > 0 ? ` (the ${charge.paidFromBalance} the credit balance paid goes back only to the balance)` : '';
  const exception = withErrorCode(
    new UnprocessableEntityException(`${what} to refund to the ${destination}: ${refundable} ${charge.currency}${balanceNote}`),
    'refund_exceeds_charge',
    { field: asked === undefined ? 'to' : 'amount' },
  );
  Object.assign(exception.getResponse() as object, { refundable });
  return exception;
}

/** The refund a reference names, when the request equals the one it was made with; 409 otherwise. */
function sameRequestOrConflict(existing: Refund, chargeId: string, dto: CreateRefundDto): Refund {
  const same =
    existing.chargeId === chargeId.toLowerCase() &&
    existing.destination === (dto.to ?? 'card') &&
    (dto.amount === undefined || existing.amount === dto.amount) &&
    existing.reason === (dto.reason ?? null);
  if (same) return existing;
  const exception = withErrorCode(new ConflictException([`reference ${existing.reference} is taken by refund ${existing.id}, asked for with another request`]), 'refund_reference_taken', {
    field: 'reference',
  });
  Object.assign(exception.getResponse() as object, { refundId: existing.id });
  throw exception;
}

/** A unique index refused the insert because the reference (or the externalID it derives) was taken meanwhile. */
function isReferenceTaken(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && ['refunds_reference_uq', 'refunds_external_id_uq'].includes(driverError.constraint ?? '');
}
