/** The worker's fence no longer matches: another worker owns the payout now, so this one stops writing. */
export class PayoutLeaseLostError extends Error {
  constructor(readonly payoutId: string) {
    super(`Lease on payout ${payoutId} was lost to another worker`);
    this.name = 'PayoutLeaseLostError';
  }
}
