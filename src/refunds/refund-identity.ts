import { createHash } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

/**
 * The externalID of a refund's create at the provider, from what the charge is (its invoice's externalID, itself
 * derived from the subscription and the period) and never from a row id, so a database restored to an earlier point
 * meets the refund the provider already made and adopts it:
 * - with a reference: `rr` + 38 characters of SHA-256 over the charge's invoice externalID and the reference;
 * - without: `rf` + 30 characters of SHA-256 over the invoice externalID, `.` and the refund's number among the
 *   charge's card refunds in base 36 (refunds to the balance are never sent, so they shift no card refund's identity).
 * At most 40 characters, the provider's limit.
 */
export function refundExternalId(invoiceExternalId: string, number: number, reference: string | null): string {
  if (reference !== null) return `rr${digest(`${invoiceExternalId}\n${reference}`).slice(0, 38)}`;
  return `rf${digest(invoiceExternalId).slice(0, 30)}.${number.toString(36)}`;
}
