/**
 * The rows of an `UPDATE ... RETURNING` run through DataSource.query: TypeORM's PostgreSQL driver answers
 * `[rows, affectedCount]` for UPDATE and DELETE statements, and the rows themselves for everything else.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
