import { isDatabaseUnavailable } from './database-unavailable';

/** Where the waiting is reported (the boot logger). */
export interface WaitLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(message: string): void;
}

export interface WaitOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** True once the process is asked to stop: the wait ends with the last error. */
  stopping?: () => boolean;
}

/**
 * Runs `work` until the database answers it: while PostgreSQL cannot be reached (down, restarting, a name that does
 * not resolve yet) the attempt is repeated with a doubling delay, each wait logged, so a replica that boots before
 * its database waits for it instead of exiting. Any other error (a refused query, a wrong password) is thrown at once.
 */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, log: WaitLog, options: WaitOptions = {}): Promise<T> {
  let delayMs = options.firstDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await work();
      if (attempt > 1) log.info(`PostgreSQL answers after ${attempt} attempts; starting`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || options.stopping?.()) throw error;
      const reason = reasonOf(error);
      log.warn({ attempt, retryInMs: delayMs, reason }, `PostgreSQL cannot be reached (${reason}); waiting ${delayMs} ms before trying again (readiness answers 503 meanwhile)`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}

/** What the wait's log line says of an error: PostgreSQL's code and its words (`57P03: the database system is shutting down`). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string' || message.includes(code)) return message;
  return message ? `${code}: ${message}` : code;
}
