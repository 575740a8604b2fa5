/** The one way tests wait: a plain pause, or polling until something a user would see has happened. */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitOptions<T = unknown> {
  /**
   * Give up after this long (default 30 s). Only a condition that never comes waits that long, so the default is
   * what a busy two-core machine may need, not what a quiet one takes.
   */
  timeoutMs?: number;
  /** Pause between two reads (default 10 ms); a function is asked before every pause. */
  everyMs?: number | (() => number);
  /** Names the condition in the error, e.g. 'the binding settled'. */
  what?: string;
  /** False: answer the last value read when giving up instead of failing, for a caller whose own assertions decide. */
  failOnTimeout?: boolean;
  /** With `progressOf`: give up as well once the progress it reads has not changed for this long. */
  stallMs?: number;
  /** The part of a value that shows progress (e.g. how many charges succeeded so far). */
  progressOf?: (value: T) => unknown;
}

/**
 * Calls `read` until `done` holds for what it answered, and answers that value. The first read is immediate;
 * at the deadline (or after `stallMs` without progress) it fails naming the condition and the last value read.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions<T> = {}): Promise<T> {
  const { timeoutMs = 30_000, everyMs = 10, what = 'condition', failOnTimeout = true, stallMs = Infinity, progressOf } = options;
  const deadline = Date.now() + timeoutMs;
  let progress: unknown = undefined;
  let progressAt = Date.now();
  for (let first = true; ; first = false) {
    const value = await read();
    if (done(value)) return value;
    if (progressOf && (first || progressOf(value) !== progress)) {
      progress = progressOf(value);
      progressAt = Date.now();
    }
    const stalled = Date.now() - progressAt > stallMs;
    if (Date.now() > deadline || stalled) {
      if (!failOnTimeout) return value;
      const why = stalled ? `no progress for ${stallMs} ms` : `not reached within ${timeoutMs} ms`;
      throw new Error(`${what} ${why}; last value: ${describe(value)}`);
    }
    await sleep(typeof everyMs === 'function' ? everyMs() : everyMs);
  }
}

/** Polls `url` until it answers `status` (a refused connection counts as not yet); answers that response. */
export async function waitForStatus(url: string, status: number, timeoutMs: number): Promise<Response> {
  const answer = await waitFor(
    () => fetch(url).catch((error: unknown) => error),
    (res) => res instanceof Response && res.status === status,
    { timeoutMs, everyMs: 200, what: `${url} answering ${status}` },
  );
  return answer as Response;
}

function describe(value: unknown): string {
  if (value instanceof Response) return `HTTP ${value.status}`;
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
