/**
 * A fenced write changed no row: another process holds the job now (see LeasedQueue.lost). Thrown by the engine
 * only; the step unwinds and the engine's drain drops the job without an error.
 */
export class LeaseLostError extends Error {
  constructor(
    readonly queue: string,
    readonly itemId: string,
  ) {
    super(`Lease on ${queue} ${itemId} was lost to another process`);
    this.name = 'LeaseLostError';
  }
}
