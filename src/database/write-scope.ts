import { AsyncLocalStorage } from 'node:async_hooks';

/** Plain reads, which change nothing wherever they run. */
const READ = /^\s*(SELECT|SHOW)\b/i;
const WRITES_INSIDE = /\b(INSERT|UPDATE|DELETE|MERGE)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;

const current = new AsyncLocalStorage<WriteScope>();

/**
 * What the statements of one unit of work (an API request) could have committed. Once the database's answer is
 * lost (the connection dropped), a statement already sent may have committed or not: this tells a request that
 * provably committed nothing (it sent only reads, or its transaction never reached COMMIT) from one whose change
 * may stand, which must never be answered "nothing was done".
 */
export class WriteScope {
  private committable = false;
  private closed = false;

  /** True once a statement that could commit a change was sent (or about to be). */
  get mayHaveCommitted(): boolean {
    return this.committable;
  }

  /** `inTransaction`: the statement runs inside an explicit transaction, where only its COMMIT commits. */
  note(sql: string, inTransaction: boolean): void {
    if (this.committable || this.closed) return;
    if (COMMIT.test(sql)) this.committable = true;
    else if (!inTransaction && !(READ.test(sql) && !WRITES_INSIDE.test(sql))) this.committable = true;
  }

  /**
   * The unit of work has answered (or failed): what runs on in its async context after that (the Idempotency-Key's
   * answer write, which follows the handler's answer) is not its change.
   */
  close(): void {
    this.closed = true;
  }

  /** Runs `work` with this scope noting every statement that `work` and what it starts send. */
  run<T>(work: () => T): T {
    return current.run(this, work);
  }
}

/** Called for every statement as it is sent: the scope it runs in, if any, takes note. */
export function noteStatement(sql: string, inTransaction: boolean): void {
  current.getStore()?.note(sql, inTransaction);
}
