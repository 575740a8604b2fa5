/** The stable identities of a charge's provider objects, and the invoice intent fixed with them. */
const hex = (uuid: string) => uuid.replace(/-/g, '');

/** The invoice create's externalID: one per charge, for its whole life. */
export function invoiceExternalId(chargeId: string): string {
  return `inv${hex(chargeId)}`;
}

/** A payment create's externalID: one per attempt; a new attempt exists only after a definite decline. */
export function paymentExternalId(chargeId: string, attempt: number): string {
  return `pay${hex(chargeId)}${attempt}`;
}

const DUE_DATE_MARGIN_MS = 30 * 86_400_000;

/**
 * The invoice's due date: past the whole dunning ladder plus a margin, counted from the period's start (or from
 * when the charge was made, if later), so no retry ever meets an expired invoice. It is part of the intent: the
 * provider compares it on a replay, and the plan's ladder may be edited in between.
 */
export function invoiceDueAt(periodStart: Date, madeAt: Date, retryDelaysMs: number[]): Date {
  const ladderMs = retryDelaysMs.reduce((a, b) => a + b, 0);
  return new Date(Math.max(periodStart.getTime(), madeAt.getTime()) + ladderMs + DUE_DATE_MARGIN_MS);
}
