import { Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActorContext } from '../common/auth/actor-context';
import { SystemClock } from '../common/clock/system-clock';
import { Page } from '../common/http/pagination';
import { checkColumnNames, SqlFragment, SqlParams } from '../database/sql-statement';
import { MerchantEvent } from './event.entity';
import { NewEvent } from './event-types';
import { EVENT_TIME_SQL, EVENTS_CTE, EventsRepository } from './events.repository';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { timeOrderedId } from './time-ordered-id';

/**
 * Given the name of the CTE that inserted events (it returns `id` and `type`), answers a CTE (`name AS (...)`)
 * that acts on them in the same statement: the webhooks module fans each event out to its endpoints this way.
 */
export type EventFanOut = (eventsCte: string) => string;

/**
 * The outbox every producer writes to: events are recorded in the producer's transaction, each fanned out at once
 * (one delivery per subscribed endpoint) in the same single statement. Event times are real time, never the test
 * clock: retention and webhook timestamps are about the real world. Each names its actor: whoever the request that
 * records it authenticated as (ActorContext), or the daemon itself.
 */
@Injectable()
export class EventsService {
  private readonly fanOuts: EventFanOut[] = [];

  constructor(
    private readonly events: EventsRepository,
    private readonly clock: SystemClock,
  ) {}

  /** Registers a fan-out run with every event recorded from now on (at module init, before any work). */
  addFanOut(fanOut: EventFanOut): void {
    this.fanOuts.push(fanOut);
  }

  /** Records `events` (in this order) in the caller's transaction, fanned out, in one statement. */
  async record(em: EntityManager, events: NewEvent | NewEvent[]): Promise<void> {
    const list = Array.isArray(events) ? events : [events];
    if (list.length === 0) return;
    const params = new SqlParams();
    const ctes = this.recordSql(list)(params);
    await em.query(`WITH ${ctes} SELECT 1`, params.values);
  }

  /**
   * CTEs recording `events` for a statement of the caller's (binding their own parameters). Their time
   * is the database's when the statement runs, after the change's row locks are held: the events of one object are
   * timed in the order of its changes, whichever process made them.
   */
  recordSql(events: NewEvent[]): SqlFragment {
    const now = this.clock.now();
    const ids = events.map(() => timeOrderedId(now));
    const actor = JSON.stringify(ActorContext.current());
    return (params) => {
      const rows = this.events.unnestRowsSql(params.bind(ids), params.bind(events.map((e) => e.type)), params.bind(events.map((e) => JSON.stringify(e.data))), params.bind(actor));
      return this.events.insertCtes(rows, this.fanOutCtes(), { actor: true });
    };
  }

  /**
   * CTEs recording `event` once for each row of the CTE `source` (none when the source is empty, e.g. a fence that
   * no longer held), for a hot path that settles in one statement. `objectSql` sets fields of `data.object` from SQL
   * text expressions over `source` (e.g. an updatedAt only the statement knows).
   */
  recordOverSql(source: string, event: NewEvent, objectSql: Record<string, string>): SqlFragment {
    checkFieldNames(objectSql);
    const id = timeOrderedId(this.clock.now());
    const actor = JSON.stringify(ActorContext.current());
    return (params) =>
      this.insertOverSql(source, `${params.bind(id)}::uuid`, params.bind(event.type), `${params.bind(JSON.stringify(event.data))}::jsonb`, objectSql, `${params.bind(actor)}::jsonb`);
  }

  /** A new event's id (time-ordered), for the rows a set-based statement records (recordRowsOverSql). */
  newId(): string {
    return timeOrderedId(this.clock.now());
  }

  /**
   * recordOverSql for many rows at once (a group commit): one event of `type` for each row of the CTE `source`, its
   * id (from newId) and data (jsonb) read from the source's columns `columns.id` and `columns.data`. A group commit
   * gathers the work engine's workers, so its events are the daemon's own (`system`, the column's default).
   */
  recordRowsOverSql(source: string, type: string, columns: { id: string; data: string }, objectSql: Record<string, string>): SqlFragment {
    checkFieldNames(objectSql);
    checkColumnNames(columns.id, columns.data);
    return (params) => this.insertOverSql(source, `${source}.${columns.id}`, params.bind(type), `${source}.${columns.data}`, objectSql, null);
  }

  async get(id: string): Promise<MerchantEvent> {
    const event = await this.events.findById(id);
    if (!event) throw new NotFoundException(`No event ${id}`);
    return event;
  }

  /** Several events in one read (a batch of deliveries); ids no longer kept are left out. */
  findMany(ids: string[]): Promise<MerchantEvent[]> {
    return this.events.findByIds(ids);
  }

  /** The types of these events by id, in one read; ids no longer kept are left out. */
  typesOf(ids: string[]): Promise<Map<string, string>> {
    return this.events.typesOf(ids);
  }

  list(query: ListEventsQueryDto): Promise<Page<MerchantEvent>> {
    return this.events.list(query);
  }

  /** The event CTEs over `source`: its id, type, data and actor (null: `system`) from SQL text, `objectSql` set into `data.object`. */
  private insertOverSql(source: string, idSql: string, typeSql: string, dataSql: string, objectSql: Record<string, string>, actorSql: string | null): string {
    let data = dataSql;
    for (const [field, expression] of Object.entries(objectSql)) data = `jsonb_set(${data}, '{object,${field}}', to_jsonb((${expression})::text))`;
    const actor = actorSql === null ? '' : `, ${actorSql}`;
    return this.events.insertCtes(`SELECT ${idSql}, ${typeSql}::varchar, ${EVENT_TIME_SQL}, ${data}${actor} FROM ${source}`, this.fanOutCtes(), { actor: actorSql !== null });
  }

  private fanOutCtes(): string[] {
    return this.fanOuts.map((fanOut) => fanOut(EVENTS_CTE));
  }
}

/** Fields of `data.object` set from SQL go into a jsonb path literal: letters only. */
function checkFieldNames(objectSql: Record<string, string>): void {
  for (const field of Object.keys(objectSql)) if (!/^[A-Za-z]+$/.test(field)) throw new Error(`Not a field name: ${field}`);
}
