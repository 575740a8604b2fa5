import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

/** An error as pg raises it for a backend's ErrorResponse, wrapped the way TypeORM throws it from a query. */
const fromServer = (code: string, message: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));
/** The same, raised while connecting (pg's own error, not wrapped). */
const whileConnecting = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a fast shutdown ending the session (57P01)', fromServer('57P01', 'terminating connection due to administrator command')],
    ['a crash of another backend (57P02)', fromServer('57P02', 'terminating connection because of crash of another server process')],
    ['a server shutting down refusing a connection (57P03)', whileConnecting('57P03', 'the database system is shutting down')],
    ['a server starting up refusing a connection (57P03)', whileConnecting('57P03', 'the database system is starting up')],
    ['a server in recovery refusing a connection (57P03)', whileConnecting('57P03', 'the database system is not yet accepting connections')],
    ['those words without a code', new Error('the database system is shutting down')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connection closed under a query', new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'))],
    ['a connection error (class 08)', whileConnecting('08006', 'connection failure')],
  ])('says yes to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a wrong password', whileConnecting('28P01', 'password authentication failed for user "billing"')],
    ['a database that does not exist', whileConnecting('3D000', 'database "billing" does not exist')],
    ['a refused row', fromServer('22003', 'bigint out of range')],
    ['a syntax error', fromServer('42601', 'syntax error at or near "SELEC"')],
    ['an error of the code', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('says no to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
