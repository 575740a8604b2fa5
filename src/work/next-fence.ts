/**
 * The fence a claim gives a row, as SQL over the row's alias: above the row's last one, and at least the database's
 * clock in microseconds. A database that comes back older than its clients (an asynchronous standby promoted, commits
 * acknowledged but not yet written) has lost the claims of its last moments. With fences counted up by one, the next
 * claim of such a row would be given the fence a live worker still holds, and both would write it. The clock has
 * moved on since, so the fence is a new one. (Microseconds stay exact in a JavaScript number until the year 2255.)
 */
export function nextFenceSql(alias: string): string {
  return `GREATEST(${alias}.fence + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)`;
}
