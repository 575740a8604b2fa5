/** How one GroupCommit batches. */
export interface GroupCommitOptions {
  /** Most items in one statement. */
  maxBatch: number;
  /** Statements in flight at once; items that come while all are busy wait and go together in the next one. */
  maxInFlight: number;
}

/**
 * The hot path's setting: one statement in flight batched more than two did at every concurrency the bench measures
 * (16 and 128 provider slots), and never ran slower; 64 items keep one statement's arrays small.
 */
const DEFAULT_OPTIONS: GroupCommitOptions = { maxBatch: 64, maxInFlight: 1 };

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for one write that many workers make concurrently: each caller submits its own item and gets its own
 * answer, while items submitted as the statements in flight are busy go to the database together, as one statement
 * and one commit (one WAL flush, one round trip). Under light load every item goes alone at once, so nothing ever
 * waits on a timer; under load the batches grow by themselves.
 *
 * `write` must answer one result per item, in the items' order, and apply each item on its own terms (a batch of one
 * behaves as the single-row statement did). When a batch of several fails, each of its items is written again alone,
 * so an item the database refuses (or a deadlock with another statement) fails only its own caller.
 */
export class GroupCommit<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private inFlight = 0;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly options: GroupCommitOptions = DEFAULT_OPTIONS,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`a group write answered ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      await Promise.all(batch.map((w) => Promise.resolve([w.item]).then((items) => this.write(items)).then(([result]) => w.resolve(result), w.reject)));
    }
  }
}
