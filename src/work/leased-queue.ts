import { Logger } from '@nestjs/common';
import { DataSource, EntityManager, EntityMetadata, ObjectLiteral, EntityTarget } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { hotQuery } from '../database/prepared-statements';
import { HeldClaims } from './held-claims';
import { LeaseLostError } from './lease-lost.error';
import { ownerIsLiveSql } from './owner-liveness';
import { nextFenceSql } from './next-fence';
import { columnValues, WakeShape, WakeTarget, wakeUpdate, WakeWhere } from './queue-wake';
import { drainQueue, WorkTail } from './worker-pool';
import { WorkMetricsService } from './work-metrics.service';
import { WorkerRegistryService } from './worker-registry.service';

/** Which rows of a domain table are its queue's jobs: the row is the job, claim and state in one place. */
export interface LeasedQueueDefinition<T extends ObjectLiteral> {
  /** Metrics label and log name. */
  name: string;
  entity: EntityTarget<T>;
  /** The column that says when a row is due; NULL means nothing to do. */
  dueColumn: string;
  /**
   * What the due column is compared with, and nothing else: `caller`, a time each claim and wake passes (charges: the
   * billing clock, which may be a test clock years from real time; payouts: the process's real clock); `database`,
   * the database's now(), and a caller's time is refused. There is no fallback from one to the other.
   */
  dueAgainst: 'caller' | 'database';
  /** Whether the table has a `not_before` column: a real-time floor (backoffs) on top of the due time. */
  hasNotBefore: boolean;
  /** For `caller` queues: the time a claim compares the due column with when none is given (e.g. the billing clock). */
  dueNow?: () => Date;
  /** Fields every fenced write of this queue carries unless it sets them (e.g. updatedAt from the clock the API shows). */
  stamp?: () => QueryDeepPartialEntity<T>;
  /** Further expressions over `t` to return with each claim, in `Claim.extra` (e.g. a timestamp as exact text). */
  extraReturning?: string;
}

/** A row this process holds: every write must quote the fence it was claimed with. */
export interface Claim<T> {
  row: T;
  fence: number;
  /** The process that held it before, when its heartbeat had lapsed (a takeover). */
  previousOwner: string | null;
  /** The `extraReturning` columns, raw. */
  extra: Record<string, unknown>;
}

/** What a fenced write needs of a claim: the row this process holds (kept up to date in memory) and its fence. */
export interface Held<T> {
  row: T;
  fence: number;
}

/** How a fenced write ends: `release` hands the row back in the same statement; `notBeforeMs` is a real-time floor. */
export interface FencedWriteOptions {
  release?: boolean;
  /** The row is not claimed again before this many ms from the database's now (a backoff, a poll's pause). */
  notBeforeMs?: number;
  /**
   * The row is due again this many ms from the database's now (a retry), or never (null: its work is over). Only for
   * queues due against the database; a queue due against the caller's clock sets its due column in `changes`.
   */
  dueInMs?: number | null;
  /** The caller's transaction, when the write is one of several that must land together. */
  em?: EntityManager;
}

/**
 * The one leased work queue of the daemon, over any table with `lease_owner` and `fence` columns. A claim takes
 * due rows with SKIP LOCKED in one statement, names this process as owner and bumps the fence; a row whose
 * owner's heartbeat lapsed is due for the taking at once. Writes elsewhere quote the fence, so a process that
 * lost a row (stall, kill, takeover) can never write it again.
 */
export class LeasedQueue<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  /** The entity property of the due column. */
  private readonly dueProperty: string;
  private readonly claimSql: string;
  private readonly releaseSql: string;
  /** Rows whose work ended since the last sweep, with the fence they were worked under. */
  private readonly finished: Claim<T>[] = [];
  /** The claims this process works on, to tell a lease of a lost claim from one of its own. */
  private readonly held = new HeldClaims();
  private readonly logger: Logger;

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: WorkerRegistryService,
    private readonly metrics: WorkMetricsService,
    readonly definition: LeasedQueueDefinition<T>,
  ) {
    this.metadata = dataSource.getMetadata(definition.entity);
    this.logger = new Logger(`LeasedQueue(${definition.name})`);
    const dueColumn = this.metadata.columns.find((c) => c.databaseName === definition.dueColumn);
    if (!dueColumn) throw new Error(`${definition.name}: the table has no column ${definition.dueColumn}`);
    this.dueProperty = dueColumn.propertyName;
    const table = this.metadata.tableName;
    // Without them the claim's plan depends on the table's statistics, which lag behind a burst of new rows.
    for (const index of [`${table}_claim_free_idx`, `${table}_claim_leased_idx`, `${table}_lease_owner_idx`]) {
      if (!this.metadata.indices.some((i) => i.name === index)) throw new Error(`${definition.name}: the table ${table} has no index ${index} for its claim`);
    }
    // $1 is the caller's time only where the due column follows the caller's clock; the other parameters come after it.
    const dueAt = definition.dueAgainst === 'caller' ? '$1::timestamptz' : 'now()';
    const [limit, owner, lapse, only] = [0, 1, 2, 3].map((k) => `$${k + (definition.dueAgainst === 'caller' ? 2 : 1)}`);
    const due = `t.${definition.dueColumn} <= ${dueAt}${definition.hasNotBefore ? ' AND (t.not_before IS NULL OR t.not_before <= now())' : ''}`;
    const onlyId = `(${only}::uuid IS NULL OR t.id = ${only}::uuid)`;
    // Rows of a dead process first (their work was in flight and must resume at once), then free rows, oldest due
    // first. A row is dead's when its owner is not this process and has not heartbeated within the lapse.
    this.claimSql = `
      WITH orphaned AS (
        SELECT t.id, t.lease_owner AS previous_owner, 0 AS rank, t.${definition.dueColumn} AS due_at FROM ${table} t
         WHERE t.lease_owner IS NOT NULL AND t.lease_owner <> ${owner} AND ${due} AND ${onlyId}
           AND NOT ${ownerIsLiveSql('t', lapse)}
         ORDER BY t.${definition.dueColumn}
         LIMIT ${limit}
         FOR UPDATE OF t SKIP LOCKED),
      free AS (
        SELECT t.id, NULL::varchar AS previous_owner, 1 AS rank, t.${definition.dueColumn} AS due_at FROM ${table} t
         WHERE t.lease_owner IS NULL AND ${due} AND ${onlyId}
         ORDER BY t.${definition.dueColumn}
         LIMIT ${limit}
         FOR UPDATE OF t SKIP LOCKED),
      picked AS (
        SELECT * FROM (SELECT * FROM orphaned UNION ALL SELECT * FROM free) x ORDER BY rank, due_at LIMIT ${limit})
      UPDATE ${table} t SET lease_owner = ${owner}, fence = ${nextFenceSql('t')}
        FROM picked
       WHERE t.id = picked.id
      RETURNING t.*, picked.previous_owner AS "__previous_owner"${definition.extraReturning ? `, ${definition.extraReturning}` : ''}`;
    this.releaseSql = `UPDATE ${table} SET lease_owner = NULL WHERE lease_owner = $1`;
    registry.addQueue({
      name: definition.name,
      releaseAll: async (workerId) => {
        const [, released] = (await this.dataSource.query(this.releaseSql, [workerId])) as [unknown, number];
        if (released > 0) this.metrics.released.inc({ queue: definition.name }, released);
      },
      sweep: (workerId) => this.sweep(workerId),
      recover: (workerId) => this.recover(workerId),
    });
  }

  /**
   * Works due rows on the engine's pool until none is left (see drainQueue). Every row whose work ended is
   * remembered with its fence: should the work's own release have failed (the database was away), the next
   * heartbeat hands the row back, so a live process never sits on a claim it no longer works.
   */
  drain(
    claim: (limit: number) => Promise<Claim<T>[]>,
    work: (claim: Claim<T>) => Promise<void | WorkTail>,
    options: { concurrency: number; batchSize: number; stopping: () => boolean; idleRetryMs?: number },
  ): Promise<number> {
    return drainQueue<Claim<T>>(
      {
        claim,
        work: async (item) => {
          let result: void | WorkTail;
          try {
            result = await work(item);
          } catch (error) {
            this.finished.push(item);
            if (error instanceof LeaseLostError) return;
            throw error;
          }
          if (!result) {
            this.finished.push(item);
            return;
          }
          return { tail: result.tail.catch(dropLostLease).finally(() => this.finished.push(item)) };
        },
        release: (items) => this.release(items),
      },
      options,
    );
  }

  /**
   * Frees rows leased to this live process that no claim of it holds: a claim whose answer was lost (a connection cut
   * between its commit and its reply, a failover just after the commit), so no worker here knows them and no other
   * process may take them while this one heartbeats. Run at each heartbeat; the comparison is made with no claim in
   * flight, so a claim's own rows are never mistaken for lost ones.
   */
  private async recover(workerId: string): Promise<void> {
    const table = this.metadata.tableName;
    const leased: { id: string; fence: string }[] = await this.dataSource.query(`SELECT id, fence FROM ${table} WHERE lease_owner = $1`, [workerId]);
    if (!leased.some((row) => !this.held.holds(row.id, Number(row.fence)))) {
      this.metrics.strayLeases.set({ queue: this.name }, 0);
      return;
    }
    await this.held.exclusive(async () => {
      const stray = (await this.dataSource.query<{ id: string; fence: string }[]>(`SELECT id, fence FROM ${table} WHERE lease_owner = $1`, [workerId])).filter(
        (row) => !this.held.holds(row.id, Number(row.fence)),
      );
      this.metrics.strayLeases.set({ queue: this.name }, stray.length);
      if (stray.length === 0) return;
      const [, freed] = (await this.dataSource.query(
        `UPDATE ${table} t SET lease_owner = NULL
           FROM unnest($1::uuid[], $2::bigint[]) AS c(id, fence)
          WHERE t.id = c.id AND t.fence = c.fence AND t.lease_owner = $3`,
        [stray.map((row) => row.id), stray.map((row) => row.fence), workerId],
      )) as [unknown, number];
      this.metrics.strayLeases.set({ queue: this.name }, 0);
      this.metrics.leasesRecovered.inc({ queue: this.name }, freed);
      this.logger.warn(`${this.name}: freed ${freed} rows leased to this process by a claim whose answer was lost; they are worked again`);
    });
  }

  private async sweep(workerId: string): Promise<void> {
    if (this.finished.length === 0) return;
    const batch = this.finished.splice(0);
    try {
      await this.dataSource.query(
        `UPDATE ${this.metadata.tableName} t SET lease_owner = NULL
           FROM unnest($1::uuid[], $2::bigint[]) AS c(id, fence)
          WHERE t.id = c.id AND t.fence = c.fence AND t.lease_owner = $3`,
        [batch.map((c) => c.row.id as string), batch.map((c) => c.fence), workerId],
      );
    } catch (error) {
      this.finished.unshift(...batch);
      throw error;
    }
  }

  get name(): string {
    return this.definition.name;
  }

  /** This process's name in `lease_owner`. */
  get owner(): string {
    return this.registry.workerId;
  }

  /**
   * Claims up to `limit` due rows (one given row with `onlyId`), oldest due first, answered as entities
   * straight from the UPDATE … RETURNING: one round trip, no second read.
   */
  async claim(limit: number, options: { dueAt?: Date; onlyId?: string } = {}): Promise<Claim<T>[]> {
    const dueAt = this.callerTime(options.dueAt ?? (this.definition.dueAgainst === 'caller' ? this.definition.dueNow?.() : undefined), 'claim');
    await this.registry.ensureRegistered();
    await this.held.enter();
    let rows: Record<string, unknown>[];
    try {
      ({ rows } = await hotQuery<Record<string, unknown>>(this.dataSource, `${this.name}.claim`, this.claimSql, [
        ...dueAt,
        limit,
        this.registry.workerId,
        this.registry.lapseSeconds,
        options.onlyId ?? null,
      ]));
    } catch (error) {
      // The claim may have committed with its answer lost: the next heartbeat finds and frees what it leased.
      this.held.failed();
      throw error;
    }
    const claims = rows.map((raw) => ({
      row: this.hydrate(raw),
      fence: Number(raw.fence),
      previousOwner: (raw.__previous_owner as string | null) ?? null,
      extra: raw,
    }));
    this.held.held(claims.map((claim) => ({ owner: claim, id: String(claim.row.id), fence: claim.fence })));
    if (claims.length === 0) return [];
    this.metrics.claimed.inc({ queue: this.name }, claims.length);
    const takeovers = claims.filter((c) => c.previousOwner !== null).length;
    if (takeovers > 0) this.metrics.takeovers.inc({ queue: this.name }, takeovers);
    return claims;
  }

  /**
   * Makes due at once the rows `target` selects that wait (a provider event says their outcome is in), unless a live
   * process holds them (it reads the outcome itself); a row of a dead holder is woken for the next claim to take.
   * `target` is the domain's SELECT of `id` and `waiting` (a boolean) over its table, with its own parameters from
   * $1; the engine adds the due time, the floor and the lease rule. `at` is the time on the caller's clock for a queue
   * due by it (the billing clock for charges), and left out for a queue due by the database's clock. Answers `woken`,
   * `busy` (a live holder has it), `settled` (found, nothing waits) or `none` (no such row).
   */
  async wake(target: WakeTarget, at?: Date): Promise<'woken' | 'busy' | 'settled' | 'none'> {
    const woken = wakeUpdate(this.wakeShape(), { from: 'target x', where: 't.id = x.id AND x.waiting', params: target.params }, this.callerTime(at, 'wake')[0] ?? null);
    const [row]: { woken: boolean; known: boolean; waiting: boolean }[] = await this.dataSource.query(
      `WITH target AS (${target.sql}), woken AS (${woken.sql})
       SELECT EXISTS (SELECT 1 FROM woken) AS woken, EXISTS (SELECT 1 FROM target) AS known, EXISTS (SELECT 1 FROM target WHERE waiting) AS waiting`,
      woken.params,
    );
    if (row.woken) return 'woken';
    if (!row.known) return 'none';
    return row.waiting ? 'busy' : 'settled';
  }

  /**
   * Makes due at `at`, by the same rule as `wake`, every row `target` selects (the domain's condition over its table
   * as `t`), with the domain's `changes` to the row in the same statement (a charge that waited for a new card goes
   * back to its payment step). Answers how many rows it woke.
   */
  async wakeAll(target: WakeWhere, at: Date | undefined, changes: QueryDeepPartialEntity<T> = {}): Promise<number> {
    const set = columnValues(this.metadata, changes as Record<string, unknown>);
    const woken = wakeUpdate(this.wakeShape(), target, this.callerTime(at, 'wake')[0] ?? null, set);
    const [, count] = (await this.dataSource.query(woken.sql, woken.params)) as [unknown[], number];
    return count;
  }

  private wakeShape(): WakeShape {
    return { table: this.metadata.tableName, dueColumn: this.definition.dueColumn, hasNotBefore: this.definition.hasNotBefore, lapseSeconds: this.registry.lapseSeconds };
  }

  /**
   * Ends a claim whose work is done and written by the domain (a follower's write-back that may land without a claim,
   * as a refresh's does): the row is handed back under the fence. Changing nothing means another process holds it
   * now, which is fine here: nothing was written in this claim's name.
   */
  async finish(held: Held<T>): Promise<void> {
    await this.dataSource.query(`UPDATE ${this.metadata.tableName} SET lease_owner = NULL WHERE id = $1 AND fence = $2`, [held.row.id, held.fence]);
  }

  /** Hands claimed rows back untouched (shutdown before their step started). */
  async release(claims: Claim<T>[]): Promise<void> {
    if (claims.length === 0) return;
    await this.dataSource.query(
      `UPDATE ${this.metadata.tableName} t SET lease_owner = NULL
         FROM unnest($1::uuid[], $2::bigint[]) AS c(id, fence)
        WHERE t.id = c.id AND t.fence = c.fence`,
      [claims.map((c) => c.row.id as string), claims.map((c) => c.fence)],
    );
    this.metrics.released.inc({ queue: this.name }, claims.length);
  }

  /**
   * The engine's one fenced write: `changes` land on the held row only while it still carries the claim's fence (in
   * `options.em`'s transaction when given). Every queue writes its claimed rows through here or, for a statement of
   * its own that quotes the fence (a step and its intent in one round trip), calls `lost` when it changed nothing.
   * The in-memory row takes the plain values written.
   */
  async write(held: Held<T>, changes: QueryDeepPartialEntity<T>, options: FencedWriteOptions = {}): Promise<void> {
    const set: Record<string, unknown> = { ...this.definition.stamp?.(), ...changes };
    if (options.release) set.leaseOwner = null;
    if (options.notBeforeMs !== undefined) {
      if (!this.definition.hasNotBefore) throw new Error(`${this.name}: the table has no not_before column`);
      // The floor is the database's real time, whichever clock the due column follows (a backoff is real time).
      set.notBefore = () => 'now() + make_interval(secs => :notBeforeSeconds)';
    }
    if (options.dueInMs !== undefined) {
      if (this.definition.dueAgainst !== 'database') throw new Error(`${this.name}: its due column follows the caller's clock; set it in the changes`);
      set[this.dueProperty] = options.dueInMs === null ? null : () => 'now() + make_interval(secs => :dueInSeconds)';
    }
    const result = await (options.em ?? this.dataSource.manager)
      .createQueryBuilder()
      .update(this.definition.entity)
      .set(set as QueryDeepPartialEntity<T>)
      .where('id = :id AND fence = :fence', { id: held.row.id, fence: held.fence })
      .setParameter('notBeforeSeconds', options.notBeforeMs === undefined ? null : options.notBeforeMs / 1000)
      .setParameter('dueInSeconds', options.dueInMs === undefined || options.dueInMs === null ? null : options.dueInMs / 1000)
      .execute();
    if (!result.affected) this.lost(held);
    for (const [key, value] of Object.entries(set)) {
      // Raw SQL expressions (functions) are not values; the in-memory copy keeps only plain ones.
      if (typeof value !== 'function') (held.row as Record<string, unknown>)[key] = value;
    }
  }

  /**
   * The one rule for a lost lease, for every queue: a fenced write that changed no row means another process holds
   * the row now (this one stalled past the lapse and was taken over, or a cancel moved the fence on purpose). The
   * refusal is counted (work_lease_lost_total) and LeaseLostError unwinds the step at once, so nothing of the step
   * runs after it: no further write and no provider call, which are the new holder's to make (with the same
   * externalID). drain then drops the job silently: it is not an error, it is not backed off (that would be a write
   * the fence refuses too), and it is not handed back (it is no longer ours). Going on after a refused write, or
   * ignoring it, could make a provider call for a charge that was canceled meanwhile.
   */
  lost(held: Held<T>): never {
    this.metrics.leaseLost.inc({ queue: this.name });
    throw new LeaseLostError(this.name, String(held.row.id));
  }

  /**
   * The caller's time as the statement's parameter, or none: required where the due column follows the caller's
   * clock, refused where it follows the database's. Comparing one clock's time with the other's column would stall
   * rows (a test clock ahead of real time) or make them due early, so neither falls back to the other.
   */
  private callerTime(at: Date | undefined, what: 'claim' | 'wake'): [Date] | [] {
    if (this.definition.dueAgainst === 'caller') {
      if (!at) throw new Error(`${this.name}: a ${what} needs the time it is due at, on the clock its due column follows`);
      return [at];
    }
    if (at) throw new Error(`${this.name}: its due column follows the database's clock; a ${what} takes no time of the caller's`);
    return [];
  }

  /** A raw row as the entity TypeORM would load (column names, types and transformers). */
  private hydrate(raw: Record<string, unknown>): T {
    const entity = this.metadata.create() as T;
    for (const column of this.metadata.columns) {
      if (!(column.databaseName in raw)) continue;
      column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(raw[column.databaseName], column));
    }
    return entity;
  }
}

/** A tail whose write the fence refused ends like any other lost lease: dropped without an error. */
function dropLostLease(error: unknown): void {
  if (!(error instanceof LeaseLostError)) throw error;
}
