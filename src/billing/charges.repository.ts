import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { Page, paginate } from '../common/http/pagination';
import { noteHotStatement } from '../database/hot-statements';
import { hotQuery } from '../database/prepared-statements';
import { GroupCommit } from '../database/group-commit';
import { checkColumnNames, followUpCtes, SqlFragment, SqlParams } from '../database/sql-statement';
import { Charge } from './charge.entity';
import { CHARGE_QUEUE, ChargeQueue } from './charge-queue';
import type { AdoptedAttempt, InvoiceRecord, NewCharge, OpenedAttempt, SucceededSettlement } from './charge-writes';
import type { LadderPosition } from '../dunning/ladder-position';
import { ListChargesQueryDto } from './list-charges-query.dto';
import { filterCharges } from './charge-list-filter';

/** Charges that can be dropped when a subscription is canceled: no payment is in flight at the provider. */
const CANCELABLE_CHARGE_STATUSES = ['pending', 'retrying', 'failed'] as const;

/**
 * charges.record-invoice: see hot-statements.ts. One statement for every charge of a group commit (a batch of one
 * is the single-charge case). Each row is applied under its own fence, and a row's answer joins on the charge and
 * the fence, so a stale worker's item in the same batch as the new holder's reads as not held.
 */
const RECORD_INVOICE_SQL = noteHotStatement('charges.record-invoice',
  `WITH i AS (SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::varchar[], $4::varchar[], $5::timestamptz[]) WITH ORDINALITY
                         AS i(charge_id, fence, invoice_id, external_id, at, n)),
            c AS (UPDATE charges ch SET provider_invoice_id = i.invoice_id, step = 'create_payment', status = 'processing', technical_failures = 0, waiting_for = NULL, updated_at = i.at
                    FROM i WHERE ch.id = i.charge_id AND ch.fence = i.fence RETURNING ch.id, ch.fence),
            a AS (INSERT INTO charge_attempts (charge_id, number, external_id, status, attempted_at, created_at, updated_at)
                  SELECT i.charge_id, 1, i.external_id, 'pending', i.at, i.at, i.at FROM i JOIN c ON c.id = i.charge_id AND c.fence = i.fence
                   WHERE NOT EXISTS (SELECT 1 FROM charge_attempts x WHERE x.charge_id = i.charge_id)
                  RETURNING charge_id, id)
       SELECT c.id IS NOT NULL AS held, a.id AS attempt_id
         FROM i
         LEFT JOIN c ON c.id = i.charge_id AND c.fence = i.fence
         LEFT JOIN a ON a.charge_id = i.charge_id AND c.id IS NOT NULL
        ORDER BY i.n`,
);

/** charges.record-payment: see hot-statements.ts. */
const RECORD_PAYMENT_SQL = noteHotStatement('charges.record-payment',
  `WITH c AS (UPDATE charges SET step = 'await_payment', status = 'processing', technical_failures = 0, updated_at = $5
                   WHERE id = $1 AND fence = $2 RETURNING id)
       UPDATE charge_attempts SET provider_payment_id = $3, status = 'processing', updated_at = $5
        WHERE id = $4 AND EXISTS (SELECT 1 FROM c) RETURNING id`,
);

/**
 * charges.open-attempt: see hot-statements.ts. A manual retry the charge waits for passes to the attempt that carries
 * it out (both CTEs read the row as it was before the update).
 */
const OPEN_ATTEMPT_SQL = noteHotStatement('charges.open-attempt',
  `WITH o AS (SELECT pending_manual_retry AS position FROM charges WHERE id = $1 AND fence = $5),
            c AS (UPDATE charges SET status = 'processing', pending_manual_retry = NULL, waiting_for = NULL, updated_at = $4 WHERE id = $1 AND fence = $5 RETURNING id)
       INSERT INTO charge_attempts (charge_id, number, external_id, status, manual, ladder_position, attempted_at, created_at, updated_at)
       SELECT $1, $2, $3, 'pending', o.position IS NOT NULL, o.position, $4, $4, $4 FROM c, o
       RETURNING id, manual, ladder_position`,
);

/** Every statement on the `charges` table. */
@Injectable()
export class ChargesRepository {
  /**
   * Concurrent workers' invoice records go as one statement and one commit while the one before is in flight: at
   * 128 provider slots that halves the statements between a charge's invoice and its payment.
   */
  private readonly invoiceRecords = new GroupCommit((items: InvoiceRecord[]) => this.recordInvoices(items));

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CHARGE_QUEUE) private readonly queue: ChargeQueue,
  ) {}

  /** Runs `work` in one short transaction (never across a provider call). */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Inserts one batch of period charges in one statement; the unique (subscription, period) makes a second
   * charge for a period impossible, whoever races. Answers the ids actually inserted.
   */
  async insertMany(em: EntityManager, charges: NewCharge[], at: Date): Promise<Set<string>> {
    if (charges.length === 0) return new Set();
    const column = <K extends keyof NewCharge>(key: K) => charges.map((c) => c[key]);
    const rows: { id: string }[] = await em.query(
      `INSERT INTO charges (id, subscription_id, customer_id, period_index, period_start, period_end, amount, currency, status, step,
                            invoice_external_id, invoice_due_at, next_attempt_at, kind, description, lines, discount_amount, created_at, updated_at)
       SELECT c.id, c.subscription_id, c.customer_id, c.period_index, c.period_start, c.period_end, c.amount, c.currency, c.status,
              CASE WHEN c.status = 'skipped' THEN 'done' ELSE 'create_invoice' END, c.invoice_external_id, c.invoice_due_at, c.next_attempt_at, c.kind, c.description, c.lines, c.discount_amount, $13, $13
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::bigint[], $8::char(3)[],
                     $9::varchar[], $10::varchar[], $11::timestamptz[], $12::timestamptz[], $14::varchar[], $15::varchar[], $16::jsonb[], $17::bigint[])
              AS c(id, subscription_id, customer_id, period_index, period_start, period_end, amount, currency, status,
                   invoice_external_id, invoice_due_at, next_attempt_at, kind, description, lines, discount_amount)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        column('id'),
        column('subscriptionId'),
        column('customerId'),
        column('periodIndex'),
        column('periodStart'),
        column('periodEnd'),
        column('amount'),
        column('currency'),
        column('status'),
        column('invoiceExternalId'),
        column('invoiceDueAt'),
        column('nextAttemptAt'),
        at,
        column('kind'),
        charges.map((c) => c.description ?? null),
        charges.map((c) => (c.lines ? JSON.stringify(c.lines) : null)),
        charges.map((c) => c.discountAmount ?? 0),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Fresh planner statistics after a bulk of new charges: the claim picks its plan from them, and with none (or
   * stale ones that say almost no charge is due) it reads and sorts every due row instead of walking its index:
   * measured 107 ms per claim against 1.5 ms at 100,000 due. Autovacuum would refresh them a minute later at best,
   * and never where it is off.
   */
  async refreshStatistics(): Promise<void> {
    await this.dataSource.query('ANALYZE charges');
  }

  /**
   * Whether the subscription (`subscriptionId`, a column of the caller's statement) has a charge whose work is due by
   * `now` and not settled: new, retrying, in flight, or waiting for a new card past its deadline. Any of them may end
   * the subscription (a decline with no retry left, or the final action), so its notices wait (see NoticeHold); a
   * one-off never ends it.
   */
  unsettledDueSql(params: SqlParams, subscriptionId: string, now: Date): string {
    checkColumnNames(...subscriptionId.split('.'));
    return `EXISTS (SELECT 1 FROM charges c WHERE c.subscription_id = ${subscriptionId} AND c.next_attempt_at <= ${params.bind(now)}::timestamptz AND c.kind <> 'one_off')`;
  }

  /** Whether a charge of the subscription's schedule is still being collected (a one-off moves none of its periods). */
  async hasOpen(em: EntityManager, subscriptionId: string): Promise<boolean> {
    const rows = await em.query(`SELECT 1 FROM charges WHERE subscription_id = $1 AND status IN ('pending', 'processing', 'retrying') AND kind <> 'one_off' LIMIT 1`, [subscriptionId]);
    return rows.length > 0;
  }

  /** Whether the period starting at `periodStart` was paid (its period charge succeeded). */
  async periodPaid(em: EntityManager, subscriptionId: string, periodStart: Date): Promise<boolean> {
    const rows = await em.query(`SELECT 1 FROM charges WHERE subscription_id = $1 AND period_start = $2 AND kind = 'period' AND status = 'succeeded'`, [subscriptionId, periodStart]);
    return rows.length > 0;
  }

  /** Whether a period charge of the subscription starts at `at` (a period's identity is its start). */
  async hasPeriodStartingAt(em: EntityManager, subscriptionId: string, at: Date): Promise<boolean> {
    const rows = await em.query(`SELECT 1 FROM charges WHERE subscription_id = $1 AND period_start = $2 AND kind = 'period'`, [subscriptionId, at]);
    return rows.length > 0;
  }

  /** How many proration charges the subscription made within [from, to). */
  async countProrations(em: EntityManager, subscriptionId: string, from: Date, to: Date): Promise<number> {
    const [row] = await em.query(`SELECT count(*)::int AS n FROM charges WHERE subscription_id = $1 AND kind = 'proration' AND period_start >= $2 AND period_start < $3`, [
      subscriptionId,
      from,
      to,
    ]);
    return row.n as number;
  }

  /**
   * Records what the credit balance paid of a charge made in this transaction (a charge paid whole is then settled by
   * the engine with no provider call, like any success).
   */
  async recordPaidFromBalance(em: EntityManager, chargeId: string, paid: number, at: Date): Promise<void> {
    await em.query(`UPDATE charges SET paid_from_balance = $2, updated_at = $3 WHERE id = $1`, [chargeId, paid, at]);
  }

  /**
   * A charge that waited for a new card after a hard decline is due again once its customer's active card changed; so
   * is a smart retry waiting for a later day (it remembers the declined card; fixed retries do not), since the new card
   * owes nothing to the old one's timing (Recurly and Braintree retry at once on a card change). The engine's wake
   * makes them due (and leaves a row a live worker holds: its deadline came and it applies the final action).
   * `customerId`: only that customer's (a card was just bound); otherwise every customer's (the pass).
   */
  async wakeAwaitingNewCard(now: Date, customerId?: string): Promise<number> {
    const of = customerId ? [customerId] : [];
    // The customer's active card is another than the one declined; `$n`: the customer's parameter, when one is given.
    const newCard = (n: number) =>
      `c.id = t.customer_id AND c.status = 'ready' AND c.active_binding_id IS DISTINCT FROM t.declined_binding_id ${customerId ? `AND t.customer_id = $${n}` : ''}`;
    const woken = await this.queue.wakeAll(
      { from: 'customers c', where: `t.step = 'awaiting_card' AND ${newCard(1)}`, params: of },
      now,
      { step: 'create_payment', status: 'retrying', declinedBindingId: null, waitingFor: null, updatedAt: now },
    );
    const hastened = await this.queue.wakeAll(
      { from: 'customers c', where: `t.status = 'retrying' AND t.step = 'create_payment' AND t.declined_binding_id IS NOT NULL AND t.next_attempt_at > $1 AND ${newCard(2)}`, params: [now, ...of] },
      now,
      { declinedBindingId: null, waitingFor: null, updatedAt: now },
    );
    return woken + hastened;
  }


  /**
   * The invoice's answer and the first payment's intent in one statement, only under `fence`: the invoice id moves
   * the charge to its payment step, and attempt 1 (with its externalID) exists before the payment is created.
   * Answers the attempt's id, or null when the charge already has attempts (then the caller reads them), or
   * undefined when the fence no longer holds.
   */
  async recordInvoice(chargeId: string, fence: number, invoiceId: string, firstAttempt: { externalId: string; attemptedAt: Date }): Promise<string | null | undefined> {
    const row = await this.invoiceRecords.submit({ chargeId, fence, invoiceId, ...firstAttempt });
    if (!row.held) return undefined;
    return row.attempt_id;
  }

  /** recordInvoice for a group commit's items, one answer per item in their order. */
  private async recordInvoices(items: InvoiceRecord[]): Promise<{ held: boolean; attempt_id: string | null }[]> {
    // The attempt's business time is also the charge's update time: every time an answer shows comes from one clock.
    const column = <K extends keyof InvoiceRecord>(key: K) => items.map((item) => item[key]);
    const { rows } = await hotQuery<{ held: boolean; attempt_id: string | null }>(this.dataSource, 'charges.record-invoice', RECORD_INVOICE_SQL, [
      column('chargeId'),
      column('fence'),
      column('invoiceId'),
      column('externalId'),
      column('attemptedAt'),
    ]);
    return rows;
  }

  /**
   * An invoice the provider already held for this period, and the payments it made on it, recorded on the charge in
   * one statement, only under `fence`: the charge moves to awaiting its newest payment (or to its first payment when
   * there is none), its declines counted. Answers the new attempts' ids by number, or undefined when the fence no
   * longer holds.
   */
  async adoptInvoice(chargeId: string, fence: number, invoiceId: string, attempts: AdoptedAttempt[], at: Date): Promise<Map<number, string> | undefined> {
    const declines = attempts.filter((a) => a.status === 'declined').length;
    const column = <K extends keyof AdoptedAttempt>(key: K) => attempts.map((a) => a[key]);
    const [row]: { held: boolean; attempts: { id: string; number: number }[] | null }[] = await this.dataSource.query(
      `WITH c AS (UPDATE charges SET provider_invoice_id = $3, step = $4, status = 'processing', attempt_count = $5, technical_failures = 0, waiting_for = NULL,
                         dunning_started_at = CASE WHEN $5 > 0 THEN COALESCE(dunning_started_at, $6) ELSE dunning_started_at END, updated_at = $6
                   WHERE id = $1 AND fence = $2 RETURNING id),
            a AS (INSERT INTO charge_attempts (charge_id, number, external_id, provider_payment_id, status, error_code, attempted_at, created_at, updated_at)
                  SELECT $1, t.number, t.external_id, t.payment_id, t.status, t.error_code, $6, $6, $6
                    FROM c, unnest($7::int[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[]) AS t(number, external_id, payment_id, status, error_code)
                  ON CONFLICT DO NOTHING
                  RETURNING id, number)
       SELECT EXISTS (SELECT 1 FROM c) AS held, (SELECT json_agg(json_build_object('id', id, 'number', number)) FROM a) AS attempts`,
      [
        chargeId,
        fence,
        invoiceId,
        attempts.length > 0 ? 'await_payment' : 'create_payment',
        declines,
        at,
        column('number'),
        column('externalId'),
        column('providerPaymentId'),
        column('status'),
        column('errorCode'),
      ],
    );
    if (!row.held) return undefined;
    return new Map((row.attempts ?? []).map((a) => [a.number, a.id]));
  }

  /** The provider's payment id on the attempt and the charge in its awaiting step, only under `fence`. */
  async recordPayment(chargeId: string, fence: number, attemptId: string, paymentId: string, at: Date): Promise<boolean> {
    const { rows } = await hotQuery(this.dataSource, 'charges.record-payment', RECORD_PAYMENT_SQL,
      [chargeId, fence, paymentId, attemptId, at],
    );
    return rows.length > 0;
  }

  /**
   * The common success in one round trip, for every settlement of a group commit: each charge settled and released,
   * its attempt succeeded (with the provider's payment id, when its claim has not recorded it yet), both stamped
   * `at`, and `followUps` run over the CTE `c`: one row per charge whose fence held, with its subscription_id and
   * updated_at, and its settlement's `at`, `audit_data` and `event_id`/`event_data` (each fragment binds its own
   * parameters after these). Answers, per settlement in order, whether its fence held.
   */
  async settleSucceeded(settlements: SucceededSettlement[], followUps: SqlFragment[]): Promise<boolean[]> {
    const p = new SqlParams();
    const column = (pick: (s: SucceededSettlement) => unknown) => p.bind(settlements.map(pick));
    const [ids, fences, counts, attempts, payments, ats, eventIds, eventData, auditData] = [
      column((s) => s.chargeId),
      column((s) => s.fence),
      column((s) => s.attemptCount),
      column((s) => s.attemptId),
      column((s) => s.paymentId),
      column((s) => s.at),
      column((s) => s.eventId),
      column((s) => JSON.stringify(s.eventData)),
      column((s) => JSON.stringify(s.auditData)),
    ];
    const sql = `WITH i AS (SELECT * FROM unnest(${ids}::uuid[], ${fences}::bigint[], ${counts}::int[], ${attempts}::uuid[], ${payments}::varchar[], ${ats}::timestamptz[],
                                    ${eventIds}::uuid[], ${eventData}::jsonb[], ${auditData}::jsonb[]) WITH ORDINALITY
                         AS i(charge_id, fence, attempt_count, attempt_id, payment_id, at, event_id, event_data, audit_data, n)),
            u AS (UPDATE charges ch SET status = 'succeeded', step = 'done', next_attempt_at = NULL, not_before = NULL, technical_failures = 0,
                         attempt_count = i.attempt_count, last_error_code = NULL, lease_owner = NULL, updated_at = i.at
                    FROM i WHERE ch.id = i.charge_id AND ch.fence = i.fence RETURNING ch.id, ch.fence, ch.subscription_id, ch.updated_at),
            c AS (SELECT i.*, u.subscription_id, u.updated_at FROM i JOIN u ON u.id = i.charge_id AND u.fence = i.fence),
            a AS (UPDATE charge_attempts t SET status = 'succeeded', provider_payment_id = COALESCE(c.payment_id, t.provider_payment_id), updated_at = c.at
                    FROM c WHERE t.id = c.attempt_id)${followUpCtes(p, followUps)}
       SELECT n FROM c`;
    const { rows } = await hotQuery<{ n: string }>(this.dataSource, 'charges.settle-succeeded', sql, p.values);
    const held = new Set(rows.map((row) => Number(row.n)));
    return settlements.map((_, index) => held.has(index + 1));
  }

  /** A subscription that ended drops its charges with no payment in flight (but `keepChargeId`), in its transaction. */
  async cancelOpen(em: EntityManager, subscriptionId: string, at: Date, keepChargeId?: string): Promise<void> {
    // The fence moves too: a worker holding one of them (about to create its invoice or payment) loses it at its
    // next write, which comes before any payment is created, so nothing is charged for an ended subscription.
    await em.update(
      Charge,
      { subscriptionId, status: In([...CANCELABLE_CHARGE_STATUSES]), ...(keepChargeId ? { id: Not(keepChargeId) } : {}) },
      { status: 'canceled', step: 'done', nextAttemptAt: null, waitingFor: null, leaseOwner: null, updatedAt: at, fence: () => 'fence + 1' },
    );
  }

  /**
   * A new payment attempt's intent (its externalID) and the charge marked `processing` (a payment may be in flight
   * from here on: cancelling the subscription no longer drops it), in one statement, only under `fence`. Answers the
   * attempt (manual when it carries out a manual retry), or undefined when the fence no longer holds.
   */
  async openAttempt(chargeId: string, fence: number, attempt: { number: number; externalId: string; attemptedAt: Date }): Promise<OpenedAttempt | undefined> {
    const { rows } = await hotQuery<{ id: string; manual: boolean; ladder_position: LadderPosition | null }>(this.dataSource, 'charges.open-attempt', OPEN_ATTEMPT_SQL,
      [chargeId, attempt.number, attempt.externalId, attempt.attemptedAt, fence],
    );
    const row = rows[0];
    return row && { id: row.id, manual: row.manual, ladderPosition: row.ladder_position };
  }

  /**
   * The charge of a provider invoice, and whether it waits for a payment's outcome (its worker reads the payment when
   * the engine wakes it, LeasedQueue.wake).
   */
  ofInvoice(providerInvoiceId: string): { sql: string; params: unknown[] } {
    return {
      sql: `SELECT id, status = 'processing' AND step IN ('create_payment', 'await_payment') AS waiting FROM charges WHERE provider_invoice_id = $1`,
      params: [providerInvoiceId],
    };
  }


  /** The status of each of these charges (the admin billing run waits on them). */
  statusesOf(ids: string[]): Promise<Pick<Charge, 'id' | 'status'>[]> {
    return this.dataSource.getRepository(Charge).find({ select: { id: true, status: true }, where: { id: In(ids) } });
  }

  /** Charges being worked right now (claimed) or whose payment waits for the provider's decision, up to `limit`. */
  async inFlightIds(limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM charges WHERE status IN ('pending', 'processing') AND (lease_owner IS NOT NULL OR step = 'await_payment') LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<Charge | null> {
    return em.getRepository(Charge).findOneBy({ id });
  }

  list(query: ListChargesQueryDto): Promise<Page<Charge>> {
    return paginate(filterCharges(this.dataSource.getRepository(Charge).createQueryBuilder('ch'), query), query);
  }

  /**
   * Makes a charge due now for a manual retry; false when its status or a claim forbids it. A charge being dunned
   * (declined before) keeps where its ladder stood, for its next attempt to take over (charges.open-attempt); a second
   * request before that attempt keeps the first one's position, not the state the first request made. `onlyEnded`:
   * only a charge whose collection is over (failed, no attempt scheduled).
   */
  async requeueForRetry(id: string, now: Date, onlyEnded = false): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE charges SET status = 'retrying', next_attempt_at = $2, not_before = NULL, waiting_for = NULL,
              step = CASE WHEN provider_invoice_id IS NULL THEN 'create_invoice'
                          WHEN step IN ('awaiting_card', 'done') THEN 'create_payment' ELSE step END,
              pending_manual_retry = COALESCE(pending_manual_retry, CASE WHEN dunning_started_at IS NOT NULL THEN
                jsonb_build_object('status', status, 'step', step, 'nextAttemptAt', next_attempt_at, 'declinedBindingId', declined_binding_id) END),
              declined_binding_id = NULL, updated_at = $2
        WHERE id = $1 AND status IN ('pending', 'retrying', 'failed') AND (NOT $3 OR (status = 'failed' AND step = 'done'))
          AND lease_owner IS NULL`,
      [id, now, onlyEnded],
    );
    return result[1] > 0;
  }

  /** How many charges are due now and how old the oldest is, for the backlog gauges. */
  async backlog(now: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n, min(next_attempt_at) AS oldest FROM charges WHERE next_attempt_at <= $1`, [now]);
    return { count: row.n as number, oldest: row.oldest ? new Date(row.oldest) : null };
  }
}
