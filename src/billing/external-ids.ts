import { createHash } from 'node:crypto';

/**
 * The stable identities of a charge's provider objects, and the invoice intent fixed with them.
 *
 * They derive from what the charge *is* (its subscription and the start of its period), never from a row id: a
 * database restored to an earlier point makes new charge rows for periods already billed, and these identities
 * lead them to the invoices and payments the provider already holds instead of to second ones.
 */

/** The provider's limit on an externalID. */
export const EXTERNAL_ID_MAX_LENGTH = 40;

/** A UUID's 16 bytes in base64url: 22 characters instead of 32 hex digits. */
function compactUuid(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`Not a UUID: ${uuid}`);
  return Buffer.from(hex, 'hex').toString('base64url');
}

/** Seconds since the epoch in base 36, seven digits (until the year 4453): one subscription never starts two periods in one second. */
function compactInstant(at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new Error(`Not a period start: ${at.toISOString()}`);
  return seconds.toString(36).padStart(7, '0');
}

/**
 * The invoice create's externalID for one period of one subscription: `inv` + the subscription (22 characters)
 * + the period start (7), 32 characters in all.
 */
export function invoiceExternalId(subscriptionId: string, periodStart: Date): string {
  return `inv${compactUuid(subscriptionId)}${compactInstant(periodStart)}`;
}

/**
 * A payment create's externalID: the invoice's with `pay` for `inv`, and the attempt number (a new attempt exists
 * only after a definite decline). Charges made before identities were derived from the period keep their stored
 * invoice externalID (`inv` + the charge id's hex), and this gives their payments the ids they always had.
 */
export function paymentExternalId(invoiceExternalId: string, attempt: number): string {
  if (!invoiceExternalId.startsWith('inv') || !Number.isInteger(attempt) || attempt < 1) {
    throw new Error(`No payment externalID for invoice ${invoiceExternalId}, attempt ${attempt}`);
  }
  return `pay${invoiceExternalId.slice(3)}${attempt}`;
}

/** The attempt number a payment externalID of this invoice carries, or undefined when it is not one of its payments'. */
export function attemptOfPaymentExternalId(invoiceExternalId: string, paymentExternalIdValue: string | undefined): number | undefined {
  const prefix = `pay${invoiceExternalId.slice(3)}`;
  if (!paymentExternalIdValue?.startsWith(prefix)) return undefined;
  const rest = paymentExternalIdValue.slice(prefix.length);
  return /^[1-9]\d{0,3}$/.test(rest) ? Number(rest) : undefined;
}

const DUE_DATE_MARGIN_MS = 30 * 86_400_000;

/**
 * The invoice's due date: past the whole dunning ladder plus a 30-day margin, counted from the period's start, so no
 * retry ever meets an expired invoice. It is derived from what the charge is, not from when it was made, because the
 * provider compares it when an externalID comes again: a charge made again after a database restore, minutes or days
 * later, sends the same due date and gets the invoice the provider already has, with no conflict. Only a charge made
 * more than half the margin after its period began (billing far behind, a test clock lagging real time) moves it,
 * by whole margins, so at least the ladder plus half the margin is always left when the invoice is made.
 */
export function invoiceDueAt(periodStart: Date, madeAt: Date, retryDelaysMs: number[]): Date {
  const ladderMs = retryDelaysMs.reduce((a, b) => a + b, 0);
  const lateMs = madeAt.getTime() - periodStart.getTime();
  const margins = 1 + Math.max(0, Math.ceil((lateMs - DUE_DATE_MARGIN_MS / 2) / DUE_DATE_MARGIN_MS));
  return new Date(periodStart.getTime() + ladderMs + margins * DUE_DATE_MARGIN_MS);
}

/**
 * When a charge counts as made for its invoice's due date: the later of the billing clock's time and real time. The
 * due date is reckoned on the billing clock, but the provider holds it against its own, real clock: a test clock that
 * lags real time (it stands still until moved) must not send an invoice that is overdue already.
 */
export function invoiceMadeAt(billingNow: Date, realNow: Date): Date {
  return new Date(Math.max(billingNow.getTime(), realNow.getTime()));
}

/** Proration charges one subscription may make within one period: two base-36 digits. */
export const MAX_PRORATIONS_PER_PERIOD = 36 * 36 - 1;

/**
 * The invoice create's externalID for the `ordinal`-th change (1-based) that charged a proration within the period
 * starting at `periodStart`: the period's own invoice id plus `p` and the ordinal in two base-36 digits, 35
 * characters. It derives from what the change is (its subscription, its period, its place among that period's
 * changes), so a database restored to before the change and the change made again meet the same invoice. The
 * fixed width keeps its payments' externalIDs (the attempt number appended) apart from one another's.
 */
export function prorationInvoiceExternalId(subscriptionId: string, periodStart: Date, ordinal: number): string {
  if (!Number.isInteger(ordinal) || ordinal < 1 || ordinal > MAX_PRORATIONS_PER_PERIOD) throw new Error(`No proration ordinal ${ordinal}`);
  return `${invoiceExternalId(subscriptionId, periodStart)}p${ordinal.toString(36).padStart(2, '0')}`;
}

/**
 * A one-off charge's invoice externalID. With the merchant's `reference`: `invr` + 30 characters of the reference's
 * SHA-256 in base64url, from the reference alone, so the same reference sent again after the database was restored
 * meets the invoice the provider already holds; without one: `invo` + the charge id (22 characters), the id the
 * request's Idempotency-Key reserved. 34 or 26 characters, so every payment's (the attempt appended) fits the limit.
 */
export function oneOffInvoiceExternalId(chargeId: string, reference: string | null): string {
  if (reference === null) return `invo${compactUuid(chargeId)}`;
  return `invr${createHash('sha256').update(reference, 'utf8').digest('base64url').slice(0, 30)}`;
}

/** The setup fee a subscription with a trial pays at its start: `invs` + the subscription (22 characters), one per subscription. */
export function setupFeeInvoiceExternalId(subscriptionId: string): string {
  return `invs${compactUuid(subscriptionId)}`;
}
