import { createHash } from 'node:crypto';

/**
 * Whether a subscription is in the holdout: a stable hash of its id, so the same subscription stays in the same group
 * on every replica and across restarts, and the groups are a fair random split of subscribers (not of charges).
 * `percent` is the share kept out, 0 to 50, in hundredths of a percent of precision.
 */
export function inHoldout(subscriptionId: string, percent: number): boolean {
  if (percent <= 0) return false;
  const bucket = createHash('sha256').update(subscriptionId).digest().readUInt32BE(0) % 10_000;
  return bucket < Math.round(percent * 100);
}
