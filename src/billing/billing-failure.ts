import { TypeORMError } from 'typeorm';
import { AmountOverLimitError } from '../common/money/amount-limits';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import type { BillingFailure } from '../subscriptions/subscription-billing-errors.service';

/**
 * SQLSTATE classes of a statement refused for what a row holds: 22 data exception (a value out of range), 23
 * integrity constraint, 54 program limit (a value too large to index), P0 a trigger's RAISE. Any other class (a
 * lost connection, a deadlock, a cancel, a missing column) is the database's or the code's trouble, the same for
 * every row, and fails the pass as before.
 */
const ROW_FAULT_CLASSES = new Set(['22', '23', '54', 'P0']);
const MESSAGE_LIMIT = 300;

/** The SQLSTATE of a database error (TypeORM's QueryFailedError or pg's own), if it carries one. */
function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { driverError?: unknown }).driverError;
  }
  return undefined;
}

/**
 * Whether a batch of subscriptions failed on what one of them holds, so that making it again without that one
 * would succeed: a statement the database refused for a row's values, or an error of the daemon's own code while it
 * worked out a subscription's period (an amount past the limit, a calendar it cannot compute). Not when the
 * database cannot be reached: then no subscription is at fault and the pass fails as it always did.
 */
export function isRowFault(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return false;
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) return ROW_FAULT_CLASSES.has(sqlState.slice(0, 2));
  // TypeORM's own errors without a SQLSTATE (a released runner, a transaction not started) are not a row's.
  return error instanceof Error && !(error instanceof TypeORMError);
}

/** What the subscription shows of a row fault (never a row's values beyond what the database's message names). */
export function describeBillingFailure(error: unknown): BillingFailure {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MESSAGE_LIMIT);
  if (error instanceof AmountOverLimitError) return { code: 'amount_over_limit', message };
  const sqlState = sqlStateOf(error);
  if (sqlState !== undefined) return { code: 'database_refused', message: `${message} (SQLSTATE ${sqlState})` };
  return { code: 'internal_error', message };
}
