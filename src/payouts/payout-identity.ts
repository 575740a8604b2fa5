import { createHash } from 'node:crypto';

/**
 * The withdrawal create's externalID. With a reference it derives from the reference alone (`r` + 39 characters
 * of its SHA-256 in base64url), so the same reference submitted again after the database was restored to an
 * earlier point names the withdrawal the provider already holds. Without one it comes from the payout's id, which
 * a restore forgets: only a reference makes a payout safe across a restore.
 */
export function withdrawalExternalId(payoutId: string, reference: string | null): string {
  if (reference === null) return `w${payoutId.replace(/-/g, '')}`;
  return `r${createHash('sha256').update(reference, 'utf8').digest('base64url').slice(0, 39)}`;
}
