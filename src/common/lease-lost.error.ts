/** The worker's fence no longer matches: another worker owns the work item now, so this one stops writing. */
export class LeaseLostError extends Error {
  constructor(
    readonly itemKind: 'charge' | 'payout',
    readonly itemId: string,
  ) {
    super(`Lease on ${itemKind} ${itemId} was lost to another worker`);
    this.name = 'LeaseLostError';
  }
}
