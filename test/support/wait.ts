/** The one way tests wait: a plain pause, or polling until something a user would see has happened. */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitOptions {
  /** Give up after this long (default 3 s). */
  timeoutMs?: number;
  /** Pause between two reads (default 10 ms); a function is asked before every pause. */
  everyMs?: number | (() => number);
  /** Names the condition in the error, e.g. 'the binding settled'. */
  what?: string;
  /** False: answer the last value read at the deadline instead of failing, for a caller whose own assertions decide. */
  failOnTimeout?: boolean;
}

/**
 * Calls `read` until `done` holds for what it answered, and answers that value. The first read is immediate;
 * at the deadline it fails naming the condition and the last value read.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 3_000, everyMs = 10, what = 'condition', failOnTimeout = true } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      if (!failOnTimeout) return value;
      throw new Error(`${what} not reached within ${timeoutMs} ms; last value: ${describe(value)}`);
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
