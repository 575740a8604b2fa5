/** The worker's fence no longer matches: another worker owns the charge now, so this one stops writing. */
export class LeaseLostError extends Error {
  constructor(readonly chargeId: string) {
    super(`Lease on charge ${chargeId} was lost to another worker`);
    this.name = 'LeaseLostError';
  }
}
