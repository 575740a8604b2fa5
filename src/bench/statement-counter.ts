import { Client } from 'pg';

/**
 * Counts the SQL statements this process sends (every pg client query, TypeORM's included), except those of
 * clients `counted` rejects (the benchmark's own). A round trip is the cost that matters on these machines.
 */
export function countStatements(counted: (client: Client) => boolean): { count: number; stop: () => void } {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const counter = {
    count: 0,
    /** Puts pg's own query back (a test that counts for a while). */
    stop: () => {
      proto.query = original;
    },
  };
  proto.query = function (this: Client, ...args: unknown[]) {
    if (counted(this)) counter.count++;
    return original.apply(this, args);
  };
  return counter;
}
