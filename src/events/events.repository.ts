import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Page, paginate } from '../common/http/pagination';
import { MerchantEvent } from './event.entity';
import { ListEventsQueryDto } from './dto/list-events-query.dto';

/** The CTE that inserts events; fan-outs read the ids and types it returns. */
export const EVENTS_CTE = 'merchant_events';

/**
 * An event's time: the database's clock when its statement runs (real time, never the test clock), to the
 * millisecond like every list cursor. Taken after the change's row locks, so the events of one object are timed in
 * the order of its changes.
 */
export const EVENT_TIME_SQL = "date_trunc('milliseconds', clock_timestamp())";

/** Rows deleted per statement when pruning, so a large backlog never holds a long lock. */
const PRUNE_CHUNK = 5_000;

/** A timestamp as the admin API prints it (toISOString), computed in SQL: milliseconds truncated, like the driver does. */
export function isoTextSql(expression: string): string {
  return `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Every statement on the `events` table. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * CTEs that insert the rows `rowsSql` yields (id, type, created_at, data, and actor when `options.actor`) and then run `fanOuts` over them, for a
   * statement of the caller's: the change, its events and their deliveries commit as one.
   */
  insertCtes(rowsSql: string, fanOuts: string[], options: { actor: boolean }): string {
    // Without an actor column the rows take its default: the daemon's own work (`system`).
    const columns = options.actor ? 'id, type, created_at, data, actor' : 'id, type, created_at, data';
    return [
      `${EVENTS_CTE} AS (INSERT INTO events (${columns}) ${rowsSql} RETURNING id, type)`,
      ...fanOuts,
    ].join(',\n');
  }

  /** Rows for insertCtes from three array parameters (ids, types, data, their placeholders given) and one actor, timed now. */
  unnestRowsSql(ids: string, types: string, data: string, actor: string): string {
    return `SELECT e.id, e.type, ${EVENT_TIME_SQL}, e.data, ${actor}::jsonb
              FROM unnest(${ids}::uuid[], ${types}::varchar[], ${data}::jsonb[]) WITH ORDINALITY
                   AS e(id, type, data, n)
             ORDER BY e.n`;
  }

  findById(id: string): Promise<MerchantEvent | null> {
    return this.dataSource.getRepository(MerchantEvent).findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<MerchantEvent[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.dataSource.getRepository(MerchantEvent).findBy({ id: In(ids) });
  }

  async typesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; type: string }[] = await this.dataSource.query(`SELECT id, type FROM events WHERE id = ANY($1::uuid[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r.type]));
  }

  list(query: ListEventsQueryDto): Promise<Page<MerchantEvent>> {
    const qb = this.dataSource.getRepository(MerchantEvent).createQueryBuilder('event');
    if (query.type) qb.andWhere('event.type = :type', { type: query.type });
    return paginate(qb, query);
  }

  /** Deletes events created before `before`, a chunk at a time; answers how many. */
  async pruneBefore(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [, deleted] = (await this.dataSource.query(
        `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < $1 LIMIT ${PRUNE_CHUNK})`,
        [before],
      )) as [unknown, number];
      total += deleted;
      if (deleted < PRUNE_CHUNK) return total;
    }
  }
}
