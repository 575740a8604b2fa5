import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Charge } from './charge.entity';
import { CHARGE_QUEUE, ChargeQueue } from './charge-queue';
import type { CartLine } from './invoice-cart';

/** A one-off charge to make: its lines, description and reference are fixed with it. */
export interface NewOneOffCharge {
  id: string;
  subscriptionId: string | null;
  customerId: string;
  amount: number;
  currency: string;
  lines: CartLine[];
  description: string | null;
  reference: string | null;
  invoiceExternalId: string;
  /** When it is due (a setup fee: the subscription's start); its `periodStart` too. */
  dueAt: Date;
}

/** The statements on `charges` that only one-off charges make (ChargesRepository has the rest). */
@Injectable()
export class OneOffChargesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
  ) {}

  /**
   * Inserts the one-off in the caller's transaction, due at `dueAt`; answers whether it did. Its id, its invoice
   * externalID and its reference are unique: a second one of the same is never made. The invoice's due date is fixed
   * just before the invoice is first made (ChargeProcessorService), when the customer can pay.
   */
  async insert(em: EntityManager, c: NewOneOffCharge, at: Date): Promise<boolean> {
    const rows: { id: string }[] = await em.query(
      `INSERT INTO charges (id, subscription_id, customer_id, period_index, period_start, period_end, amount, currency, status, step, kind,
                            invoice_external_id, next_attempt_at, lines, description, reference, created_at, updated_at)
       VALUES ($1, $2, $3, 0, $4, $4, $5, $6, 'pending', 'create_invoice', 'one_off', $7, $4, $8, $9, $10, $11, $11)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [c.id, c.subscriptionId, c.customerId, c.dueAt, c.amount, c.currency, c.invoiceExternalId, JSON.stringify(c.lines), c.description, c.reference, at],
    );
    return rows.length > 0;
  }

  /** The one-off charge with this id, reference or invoice externalID, read in `em`'s transaction when given. */
  findOne(where: { id: string } | { reference: string } | { invoiceExternalId: string }, em: EntityManager = this.dataSource.manager): Promise<Charge | null> {
    return em.getRepository(Charge).findOneBy({ ...where, kind: 'one_off' });
  }

  /** Serializes the requests that use one reference (a one-off's or a pending item's) until the caller's transaction ends. */
  async lockReference(em: EntityManager, reference: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 15))`, [`charge-reference:${reference}`]);
  }

  /**
   * One-offs that waited for their customer's first card are due now that the customer is ready (the engine's wake:
   * they are not due while they wait, so no worker holds them). `customerId`: only that customer's.
   */
  wakeWaitingForCustomer(now: Date, customerId?: string): Promise<number> {
    return this.queue.wakeAll(
      {
        from: 'customers c',
        where: `t.step = 'await_customer' AND c.id = t.customer_id AND c.status = 'ready' ${customerId ? 'AND t.customer_id = $1' : ''}`,
        params: customerId ? [customerId] : [],
      },
      now,
      { step: 'create_invoice', lastErrorCode: null, updatedAt: now },
    );
  }
}
