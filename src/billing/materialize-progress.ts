/** Where a pass's materialization stands when a claim starts: batches committed so far, and whether it has ended. */
export interface MaterializeMark {
  batches: number;
  finished: boolean;
}

/**
 * How far a pass has come in making due periods into charges, for the drain that works them meanwhile: a claim that
 * finds nothing while charges are still being made waits for the next committed batch instead of ending the drain,
 * so the provider slots start on the first batch rather than after the last.
 */
export class MaterializeProgress {
  private batches = 0;
  private finished = false;
  private waiters: (() => void)[] = [];

  get mark(): MaterializeMark {
    return { batches: this.batches, finished: this.finished };
  }

  batchCommitted(): void {
    this.batches++;
    this.wakeAll();
  }

  finish(): void {
    this.finished = true;
    this.wakeAll();
  }

  /** Resolves once a batch has been committed or materialization has ended since `mark` (at once if it has already). */
  async after(mark: MaterializeMark): Promise<void> {
    if (this.batches !== mark.batches || this.finished !== mark.finished) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wakeAll(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
