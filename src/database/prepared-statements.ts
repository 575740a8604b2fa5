import { createHash } from 'node:crypto';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { noteHotStatement } from './hot-statements';
import { noteStatement } from './write-scope';

const names = new Map<string, string>();
const preparable = new WeakMap<DataSource, Promise<boolean>>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `hot_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The embedded database (PGlite) serves every connection from one session, so a statement name prepared by one
 * connection would clash on another: named statements only on a real server. A failed check (the database was
 * away) is not remembered, or one outage at the first statement would leave the process unprepared for good.
 */
function canPrepare(dataSource: DataSource): Promise<boolean> {
  let known = preparable.get(dataSource);
  if (!known) {
    known = dataSource
      .query<{ version: string }[]>('SELECT version() AS version')
      .then(([row]) => !/PGlite|emscripten/i.test(row.version))
      .catch(() => {
        preparable.delete(dataSource);
        return false;
      });
    preparable.set(dataSource, known);
  }
  return known;
}

/**
 * Runs a statement of a hot path (claims, the steps of a charge) as a named prepared statement, so PostgreSQL parses
 * and plans it once per connection instead of at every call; on the embedded database, as a plain parameterized
 * query. `text` must be the same string for every call of one statement (values go in `values`); `name` is its name
 * in the catalogue (hot-statements.ts), `<queue>.claim` for the claims of the work engine.
 */
export async function hotQuery<R extends QueryResultRow>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<QueryResult<R>> {
  noteHotStatement(name, text);
  // Run on the pool, outside any transaction of TypeORM's: each commits on its own.
  noteStatement(text, false);
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  return pool.query<R>((await canPrepare(dataSource)) ? { name: nameOf(text), text, values } : { text, values });
}
