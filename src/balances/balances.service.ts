import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { withErrorCode } from '../common/errors/coded-error';
import { CustomersService } from '../customers/customers.service';
import { applyBalance } from '../subscriptions/proration';
import { BalanceEntriesRepository } from './balance-entries.repository';
import { BalanceEntry } from './balance-entry.entity';

const ENTRIES_SHOWN = 100;

/**
 * The customers' credit balances: an append-only ledger per customer and currency whose sum is never negative.
 * Every entry carries a unique reference (the change or the charge that made it), so it is written exactly once
 * whichever replica, restart or retry writes it again.
 */
@Injectable()
export class BalancesService {
  constructor(
    private readonly entries: BalanceEntriesRepository,
    private readonly customers: CustomersService,
  ) {}

  /** The balance, locked against every other write to it until the caller's transaction ends. */
  async lockedBalance(em: EntityManager, customerId: string, currency: string): Promise<number> {
    await this.entries.lock(em, customerId, currency);
    return this.entries.sum(em, customerId, currency);
  }

  /** The balance now, read inside the caller's transaction when one is given. */
  balance(em: EntityManager | null, customerId: string, currency: string): Promise<number> {
    return this.entries.sum(em, customerId, currency);
  }

  /**
   * Credits unused days of a paid period (a downgrade now) under the change's own reference. A reference written
   * already fails the caller's transaction: a credit the answer shows is never dropped.
   */
  async credit(em: EntityManager, entry: { customerId: string; currency: string; amount: number; reference: string; subscriptionId: string; description: string }, at: Date): Promise<void> {
    if (entry.amount <= 0) return;
    await this.entries.lock(em, entry.customerId, entry.currency);
    const { inserted } = await this.entries.append(em, { ...entry, kind: 'proration_credit' }, at);
    if (!inserted) throw new Error(`Balance entry ${entry.reference} exists already: a credit of ${entry.amount} ${entry.currency} was not written`);
  }

  /**
   * Gives a charge's money back to the customer's balance (a refund to the balance), under the refund's own reference
   * in the caller's transaction (the refund's). A reference written already fails it: a refund never credits twice.
   */
  async refund(em: EntityManager, entry: { customerId: string; currency: string; amount: number; refundId: string; chargeId: string }, at: Date): Promise<void> {
    await this.entries.lock(em, entry.customerId, entry.currency);
    const { inserted } = await this.entries.append(
      em,
      {
        customerId: entry.customerId,
        currency: entry.currency,
        kind: 'refund',
        amount: entry.amount,
        reference: `refund:${entry.refundId}`,
        chargeId: entry.chargeId,
        description: `refund of charge ${entry.chargeId}`,
      },
      at,
    );
    if (!inserted) throw new Error(`Balance entry refund:${entry.refundId} exists already: a refund of ${entry.amount} ${entry.currency} was not written`);
  }

  /**
   * Applies the balance to a charge of `amount`, once: the first call books an `applied` entry of what the balance
   * covers (never more than it holds), every later call for the same charge answers that same figure.
   */
  async applyToCharge(em: EntityManager, charge: { id: string; customerId: string; currency: string; amount: number; subscriptionId: string | null }, at: Date): Promise<number> {
    const reference = `charge:${charge.id}`;
    await this.entries.lock(em, charge.customerId, charge.currency);
    const booked = await this.entries.findByReference(em, reference);
    if (booked) return -booked.amount;
    const { applied } = applyBalance(await this.entries.sum(em, charge.customerId, charge.currency), charge.amount);
    if (applied === 0) return 0;
    const { entry } = await this.entries.append(
      em,
      { customerId: charge.customerId, currency: charge.currency, kind: 'applied', amount: -applied, reference, subscriptionId: charge.subscriptionId, chargeId: charge.id, description: `applied to charge ${charge.id}` },
      at,
    );
    return -entry.amount;
  }

  /** Of these customers, those with credit to apply. */
  withBalance(em: EntityManager, customerIds: string[]): Promise<Set<string>> {
    return this.entries.withBalance(em, [...new Set(customerIds)]);
  }

  /** `GET /customers/:id/balance`: the balance per currency and the newest entries. */
  async ofCustomer(customerId: string): Promise<{ balances: { currency: string; amount: number }[]; entries: BalanceEntry[] }> {
    if (!(await this.customers.findStanding(customerId))) throw withErrorCode(new NotFoundException(`No customer ${customerId}`), 'not_found');
    const [balances, entries] = await Promise.all([this.entries.balances(customerId), this.entries.entries(customerId, ENTRIES_SHOWN)]);
    return { balances, entries };
  }
}
