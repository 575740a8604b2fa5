import type { EntityMetadata } from 'typeorm';
import { ownerIsLiveSql } from './owner-liveness';

/** The domain's SELECT of the rows to wake (`id`, and `waiting` for `LeasedQueue.wake`), with its parameters from $1. */
export interface WakeTarget {
  sql: string;
  params: unknown[];
}

/**
 * The domain's condition for the rows to wake, over its table as `t` (and `from`, other tables it joins), with its
 * parameters from $1. PostgreSQL checks it again on a row another transaction changed meanwhile, so a row that
 * stopped waiting is not woken.
 */
export interface WakeWhere {
  from?: string;
  where: string;
  params: unknown[];
}

/** What a wake statement needs of its queue. */
export interface WakeShape {
  table: string;
  dueColumn: string;
  hasNotBefore: boolean;
  lapseSeconds: number;
}

/**
 * The engine's one way to make rows due: an UPDATE … RETURNING t.id of the rows `where` selects that sets their due
 * column to `at` unless they are due earlier already and clears their real-time floor, and leaves the rows a live
 * process holds (it works them itself; a dead holder's row is woken for the next claim to take). `set`: the domain's
 * own columns written with the wake (their values bound). `at` is null for a queue due by the database's clock (its
 * now()). Answers the statement and its parameters (the domain's first).
 */
export function wakeUpdate(shape: WakeShape, where: WakeWhere, at: Date | null, set: [column: string, value: unknown][] = []): { sql: string; params: unknown[] } {
  const params = [...where.params];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const time = at === null ? 'now()' : `${bind(at)}::timestamptz`;
  const due = shape.dueColumn;
  const assignments = [
    ...(shape.hasNotBefore ? ['not_before = NULL'] : []),
    `${due} = LEAST(COALESCE(t.${due}, ${time}), ${time})`,
    ...set.map(([column, value]) => `${column} = ${bind(value)}`),
  ];
  const sql = `UPDATE ${shape.table} t SET ${assignments.join(', ')}${where.from ? ` FROM ${where.from}` : ''}
                WHERE (${where.where}) AND (t.lease_owner IS NULL OR NOT ${ownerIsLiveSql('t', bind(shape.lapseSeconds))})
               RETURNING t.id`;
  return { sql, params };
}

/** `changes` by entity property as (column, value) pairs of the entity's table; a property with no column throws. */
export function columnValues(metadata: EntityMetadata, changes: Record<string, unknown>): [column: string, value: unknown][] {
  return Object.entries(changes).map(([property, value]) => {
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.tableName}: no column for ${property}`);
    return [column.databaseName, value];
  });
}
