import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { AmountOverLimitError } from '../common/money/amount-limits';
import { describeBillingFailure, isRowFault } from './billing-failure';

/** A statement the database refused, as TypeORM throws it. */
function refused(code: string, message: string): QueryFailedError {
  return new QueryFailedError('INSERT INTO charges ...', [], Object.assign(new Error(message), { code }));
}

describe('billing failures', () => {
  it.each([
    ['a value out of range', refused('22003', 'value "10000000000000000000" is out of range for type bigint')],
    ['a constraint', refused('23514', 'new row for relation "charges" violates check constraint')],
    ['a trigger', refused('P0001', 'refused')],
    ['an amount past the limit', new AmountOverLimitError('the period amount 1 × 2 passes the limit')],
    ['a calendar that cannot be worked out', new RangeError('Invalid time zone')],
  ])('puts %s on the row', (_, error) => {
    expect(isRowFault(error)).toBe(true);
  });

  it.each([
    ['a database shutting down', refused('57P01', 'terminating connection due to administrator command')],
    ['a deadlock', refused('40P01', 'deadlock detected')],
    ['a statement canceled', refused('57014', 'canceling statement due to statement timeout')],
    ['a missing column', refused('42703', 'column "x" does not exist')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a closed client', new QueryFailedError('SELECT 1', [], new Error('Client was closed and is not queryable'))],
    ['a released runner', new QueryRunnerAlreadyReleasedError()],
  ])('does not put %s on a row', (_, error) => {
    expect(isRowFault(error)).toBe(false);
  });

  it('tells the subscription what failed, by kind', () => {
    expect(describeBillingFailure(new AmountOverLimitError('past the limit'))).toEqual({ code: 'amount_over_limit', message: 'past the limit' });
    expect(describeBillingFailure(refused('22003', 'bigint out of range'))).toEqual({ code: 'database_refused', message: 'bigint out of range (SQLSTATE 22003)' });
    expect(describeBillingFailure(new TypeError("Cannot read properties of undefined (reading 'interval')"))).toEqual({
      code: 'internal_error',
      message: "Cannot read properties of undefined (reading 'interval')",
    });
    expect(describeBillingFailure(new Error('x'.repeat(1000))).message).toHaveLength(300);
  });
});
