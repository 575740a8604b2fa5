import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { BalancesService } from '../balances/balances.service';
import { SystemClock } from '../common/clock/system-clock';
import { WorkRunnerService } from '../work/work-runner.service';
import { CHARGES_QUEUE } from './billing-scheduler.service';
import { ChargeKind } from './charge.entity';
import { ChargesRepository } from './charges.repository';
import { invoiceDueAt, invoiceMadeAt, MAX_PRORATIONS_PER_PERIOD, prorationInvoiceExternalId, invoiceExternalId } from './external-ids';

/** A charge a subscription change makes now, inside the change's transaction. */
export interface ChangeCharge {
  subscriptionId: string;
  customerId: string;
  currency: string;
  amount: number;
  kind: ChargeKind;
  /** `proration`: the change's instant; `period`: the new period's start (the change). */
  periodStart: Date;
  periodEnd: Date;
  /** The current period's start: a proration's identity counts the changes within it. */
  currentPeriodStart: Date;
  description: string | null;
  retryDelaysMs: number[];
}

/**
 * What billing offers subscription changes: whether a charge is in flight, whether the period was paid, and the
 * charges a change makes, written in the change's transaction with the credit balance applied to them at once
 * (a charge the balance covers whole is settled then, with no provider call). Their provider identities derive
 * from the subscription and the period, so a restored database meets the invoices the provider already holds.
 */
@Injectable()
export class ProrationChargesService {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly balances: BalancesService,
    private readonly runner: WorkRunnerService,
    private readonly realClock: SystemClock,
  ) {}

  hasOpenCharge(em: EntityManager, subscriptionId: string): Promise<boolean> {
    return this.charges.hasOpen(em, subscriptionId);
  }

  periodPaid(em: EntityManager, subscriptionId: string, periodStart: Date): Promise<boolean> {
    return this.charges.periodPaid(em, subscriptionId, periodStart);
  }

  /**
   * Whether a period of the subscription starts at `at` already: a change to another interval at that instant would
   * start a second one there, which the period's identity (its start) cannot tell apart.
   */
  periodStartsAt(em: EntityManager, subscriptionId: string, at: Date): Promise<boolean> {
    return this.charges.hasPeriodStartingAt(em, subscriptionId, at);
  }

  /** Makes the charge; answers its id and what the balance paid of it. */
  async make(em: EntityManager, c: ChangeCharge, now: Date): Promise<{ id: string; paidFromBalance: number }> {
    const id = randomUUID();
    let externalId: string;
    if (c.kind === 'proration') {
      const ordinal = (await this.charges.countProrations(em, c.subscriptionId, c.currentPeriodStart, c.periodEnd)) + 1;
      if (ordinal > MAX_PRORATIONS_PER_PERIOD) throw new Error(`Subscription ${c.subscriptionId}: too many changes in one period`);
      externalId = prorationInvoiceExternalId(c.subscriptionId, c.currentPeriodStart, ordinal);
    } else {
      externalId = invoiceExternalId(c.subscriptionId, c.periodStart);
    }
    const inserted = await this.charges.insertMany(
      em,
      [
        {
          id,
          subscriptionId: c.subscriptionId,
          customerId: c.customerId,
          periodIndex: 0,
          periodStart: c.periodStart,
          periodEnd: c.periodEnd,
          amount: c.amount,
          kind: c.kind,
          description: c.description,
          currency: c.currency,
          status: 'pending',
          invoiceExternalId: externalId,
          invoiceDueAt: invoiceDueAt(c.periodStart, invoiceMadeAt(now, this.realClock.now()), c.retryDelaysMs),
          nextAttemptAt: now,
        },
      ],
      now,
    );
    // The change holds the subscription's lock and checked for a period at its instant: a conflict here is a bug.
    if (!inserted.has(id)) throw new Error(`Subscription ${c.subscriptionId}: a ${c.kind} charge ${externalId} (from ${c.periodStart.toISOString()}) exists already`);
    const paid = await this.balances.applyToCharge(em, { id, customerId: c.customerId, currency: c.currency, amount: c.amount, subscriptionId: c.subscriptionId }, now);
    if (paid > 0) await this.charges.recordPaidFromBalance(em, id, paid, now);
    return { id, paidFromBalance: paid };
  }

  /** After the change committed: the charge queue looks at once instead of at its next pass. */
  kick(): void {
    this.runner.kick(CHARGES_QUEUE);
  }
}
