/** A payment as the sandbox's ledger shows it (the fields the check reads): the provider's own record of money taken. */
export interface LedgerPaymentView {
  invoiceID: string;
  paymentID: string;
  amount: number;
  currency: string;
  /** 'captured' = money taken. */
  status: string;
  externalID?: string;
  invoiceExternalID?: string;
  /** What the invoice carried when the engine created it: subscriptionId, chargeId, periodStart. */
  invoiceMetadata?: Record<string, unknown>;
}

export interface LedgerView {
  payments: LedgerPaymentView[];
}

/** A charge as GET /api/v1/charges answers it (the fields the check reads). */
export interface ChargeView {
  id: string;
  subscriptionId: string;
  periodStart: string;
  status: string;
  invoiceId: string | null;
  amount: number;
  currency: string;
  lastErrorCode?: string | null;
  attempts?: { number: number; status: string; paymentId: string | null }[];
}

/** An audit event as GET /api/v1/subscriptions/:id/events answers it (the fields the check reads). */
export interface SubscriptionEventView {
  subscriptionId: string;
  type: string;
  data: Record<string, unknown>;
}

export interface ExactlyOnceExpectation {
  /** Every subscription of the scenario with the start of every period due by the final clock time. */
  subscriptions: { id: string; periodStarts: string[] }[];
  amount: number;
  currency: string;
  /**
   * The database was restored to an earlier point: a charge may own an invoice an earlier, forgotten charge row of
   * the same period made (its metadata names that row). The invoice itself must still be the charge's.
   */
  afterRestore?: boolean;
}

export interface ExactlyOnceReport {
  violations: string[];
  /** Money-taking payments seen in the ledger (captured, processed, refunded). */
  charged: number;
  expectedPeriods: number;
  charges: number;
}

/**
 * Payment statuses in which the provider has taken (or holds) the money. A refunded payment took the money
 * first, so it still counts: refunding a double charge does not make it a single one.
 */
const MONEY_TAKEN = new Set(['captured', 'processed', 'refunded']);
/** Statuses whose outcome is still open: after a full drain none may remain, or a later capture could double charge. */
const STILL_OPEN = new Set(['pending']);

const iso = (value: string) => new Date(value).toISOString();
const key = (subscriptionId: string, periodStart: string) => `${subscriptionId}@${iso(periodStart)}`;

/**
 * The exactly-once accounting, Jepsen total-queue style: for every (subscription, period) due by the final clock time
 * the provider's ledger holds exactly one money-taking payment (none lost, none doubled, none for a period that is not
 * due), and the daemon has exactly one charge for it, succeeded, pointing at the invoice that was paid.
 * Pure, so it can be checked against hand-made ledgers too.
 */
export function checkExactlyOnce(
  ledger: LedgerView,
  charges: ChargeView[],
  expectation: ExactlyOnceExpectation,
  /** When given: the subscriptions' audit trails, which must record each charge's success exactly once. */
  events?: SubscriptionEventView[],
): ExactlyOnceReport {
  const violations: string[] = [];
  const expected = new Set<string>();
  for (const s of expectation.subscriptions) for (const p of s.periodStarts) expected.add(key(s.id, p));
  const scenarioSubscriptions = new Set(expectation.subscriptions.map((s) => s.id));

  // 1. The provider's side: money-taking payments grouped by the (subscription, period) stamped on their invoice.
  const paidByPeriod = new Map<string, LedgerPaymentView[]>();
  let charged = 0;
  for (const p of ledger.payments) {
    if (STILL_OPEN.has(p.status)) {
      violations.push(`payment ${p.invoiceID}/${p.paymentID} is still ${p.status} after the drain (outcome open: it may still take money)`);
    }
    if (!MONEY_TAKEN.has(p.status)) continue;
    charged++;
    const meta = p.invoiceMetadata ?? {};
    if (!meta.subscriptionId || !meta.periodStart) {
      violations.push(`payment ${p.invoiceID}/${p.paymentID} (${p.status}) took money on an invoice without subscriptionId/periodStart metadata`);
      continue;
    }
    const k = key(String(meta.subscriptionId), String(meta.periodStart));
    paidByPeriod.set(k, [...(paidByPeriod.get(k) ?? []), p]);
    if (p.amount !== expectation.amount || p.currency !== expectation.currency) {
      violations.push(`payment ${p.invoiceID}/${p.paymentID} for ${k} took ${p.amount} ${p.currency}, expected ${expectation.amount} ${expectation.currency}`);
    }
  }
  for (const k of expected) {
    const paid = paidByPeriod.get(k) ?? [];
    if (paid.length === 0) violations.push(`MISSED: ${k} is due but the provider took no money for it`);
    if (paid.length > 1) {
      violations.push(`DOUBLE CHARGE: ${k} was charged ${paid.length} times: ${paid.map((p) => `${p.invoiceID}/${p.paymentID} (${p.status}, payment externalID ${p.externalID ?? '-'})`).join(', ')}`);
    }
  }
  for (const [k, paid] of paidByPeriod) {
    if (!expected.has(k)) violations.push(`UNEXPECTED CHARGE: ${k} is not a due period of this scenario but was charged ${paid.length} time(s)`);
  }

  // 2. The daemon's side: one succeeded charge per due period, naming the very invoice that was paid.
  const chargesByPeriod = new Map<string, ChargeView[]>();
  for (const c of charges) {
    if (!scenarioSubscriptions.has(c.subscriptionId)) continue;
    const k = key(c.subscriptionId, c.periodStart);
    chargesByPeriod.set(k, [...(chargesByPeriod.get(k) ?? []), c]);
  }
  for (const k of expected) {
    const rows = chargesByPeriod.get(k) ?? [];
    if (rows.length !== 1) {
      violations.push(`the daemon has ${rows.length} charges for ${k}, expected exactly one`);
      continue;
    }
    const c = rows[0];
    if (c.status !== 'succeeded') violations.push(`charge ${c.id} for ${k} is ${c.status} (last error ${c.lastErrorCode ?? '-'}), expected succeeded`);
    if (c.amount !== expectation.amount || c.currency !== expectation.currency) {
      violations.push(`charge ${c.id} for ${k} is for ${c.amount} ${c.currency}, expected ${expectation.amount} ${expectation.currency}`);
    }
    if (events) {
      const recorded = events.filter((e) => e.type === 'charge_succeeded' && e.data.chargeId === c.id).length;
      if (recorded !== 1) violations.push(`the audit trail of ${c.subscriptionId} records charge_succeeded ${recorded} times for charge ${c.id} (${k}), expected once`);
    }
    const paid = paidByPeriod.get(k) ?? [];
    if (paid.length === 1) {
      const p = paid[0];
      if (c.invoiceId !== p.invoiceID) violations.push(`charge ${c.id} for ${k} records invoice ${c.invoiceId ?? 'none'} but the money was taken on invoice ${p.invoiceID}`);
      if (!expectation.afterRestore && p.invoiceMetadata?.chargeId && p.invoiceMetadata.chargeId !== c.id) {
        violations.push(`the paid invoice ${p.invoiceID} for ${k} names charge ${String(p.invoiceMetadata.chargeId)}, not the daemon's charge ${c.id}`);
      }
    }
  }
  for (const [k, rows] of chargesByPeriod) {
    if (!expected.has(k)) violations.push(`the daemon has ${rows.length} charge(s) for ${k}, a period that is not due`);
  }

  return { violations, charged, expectedPeriods: expected.size, charges: charges.length };
}

/** Period starts of the billing scenarios: business time in the future of the real clock, so the test clock can be set to it. */
export const T0 = '2027-01-15T10:00:00.000Z';
export const FEB = '2027-02-15T10:00:00.000Z';
export const MAR = '2027-03-15T10:00:00.000Z';

/** Start of every monthly period from `anchor` (day of month ≤ 28, UTC) whose start is at or before `until`. */
export function monthlyPeriodStarts(anchor: string, until: string): string[] {
  const a = new Date(anchor);
  if (a.getUTCDate() > 28) throw new Error('monthlyPeriodStarts only handles anchors on day 1..28');
  const end = new Date(until).getTime();
  const starts: string[] = [];
  for (let k = 0; ; k++) {
    const start = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + k, a.getUTCDate(), a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds()));
    if (start.getTime() > end) return starts;
    starts.push(start.toISOString());
  }
}
