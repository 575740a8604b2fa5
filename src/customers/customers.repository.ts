import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { ListOptions, Page, paginate } from '../common/http/pagination';
import { Claim } from '../work/leased-queue';
import { Customer, CustomerStatus } from './customer.entity';
import { SyncTarget, syncTargetOf } from './sync-target';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A customer as charging needs it: who pays at the provider, and with which card. */
export interface CustomerPayer {
  id: string;
  providerCustomerId: string;
  activeBindingId: string | null;
  /** The provider's shop that invoices this customer (a one-off's invoice goes there). */
  shopId: string;
  /** Whether the customer has a card to pay with (status `ready`). */
  ready: boolean;
}

/** The customer's row as the write-back sees it under its lock. */
export interface LockedCustomer {
  status: CustomerStatus;
  last_event_id: number | null;
  /** Real time of the insert: the follower's poll ladder runs on real time. */
  real_created_at: Date;
  active_binding_id: string | null;
  announced_binding_id: string | null;
}

/** The columns the follower's write-back may set through a plain update. */
export type CustomerSyncPatch = Partial<Pick<Customer, 'status' | 'activeBindingId' | 'announcedBindingId' | 'cardBin' | 'cardLastDigits' | 'cardPaymentSystem'>>;

export type NewCustomer = Pick<Customer, 'id' | 'providerCustomerId' | 'shopId' | 'email' | 'phone' | 'metadata' | 'status' | 'createdAt' | 'updatedAt'>;

/** next_sync_at before and after startBinding moved it, exactly as the database printed them. */
export interface SyncTimeChange {
  before: string | null;
  after: string | null;
}

interface SyncTargetRow {
  id: string;
  provider_customer_id: string;
  status: CustomerStatus;
  last_event_id: number | null;
  active_binding_id: string | null;
  card_bin: string | null;
  card_last_digits: string | null;
  created_at: Date;
  next_sync_at_text: string | null;
}

/** next_sync_at as exact text: scheduleNextSync compares it with what is there now, so no precision may be lost. */
/** next_sync_at as the database prints it: the follower's claims return it, and its write-back compares against it. */
export const NEXT_SYNC_AT_TEXT = 'next_sync_at::text AS next_sync_at_text';

const TARGET_COLUMNS = `id, provider_customer_id, status, last_event_id, active_binding_id, card_bin, card_last_digits, created_at,
  ${NEXT_SYNC_AT_TEXT}`;

/**
 * Every statement on the `customers` table. Methods that take an EntityManager run inside the caller's
 * transaction; without one they run on their own.
 */
@Injectable()
export class CustomersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction; hand its EntityManager to every statement that belongs in it. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The sync target of a claim from the follower's queue. */
  syncTargetOfClaim(claim: Claim<Customer>): SyncTarget {
    return syncTargetOf(claim.row, claim.extra.next_sync_at_text as string | null);
  }

  /** A customer to read now without claiming it (refresh); undefined when there is none. */
  async findSyncTarget(id: string): Promise<SyncTarget | undefined> {
    const rows = await this.dataSource.query<SyncTargetRow[]>(`SELECT ${TARGET_COLUMNS} FROM customers WHERE id = $1`, [id]);
    if (rows.length === 0) return undefined;
    const row = rows[0];
    return {
      id: row.id,
      providerCustomerId: row.provider_customer_id,
      status: row.status,
      lastEventId: row.last_event_id,
      activeBindingId: row.active_binding_id,
      hasCard: row.card_bin !== null || row.card_last_digits !== null,
      createdAt: row.created_at,
      observedNextSyncAt: row.next_sync_at_text,
    };
  }

  /** In `em`'s transaction when given (a write-back reading what it just wrote). */
  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<Customer | null> {
    return em.getRepository(Customer).findOneBy({ id });
  }

  /** What charging needs of several customers, in one read. */
  async payersOf(ids: string[]): Promise<CustomerPayer[]> {
    const rows: { id: string; provider_customer_id: string; active_binding_id: string | null; shop_id: string; status: string }[] = await this.dataSource.query(
      `SELECT id, provider_customer_id, active_binding_id, shop_id, status FROM customers WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((r) => ({ id: r.id, providerCustomerId: r.provider_customer_id, activeBindingId: r.active_binding_id, shopId: r.shop_id, ready: r.status === 'ready' }));
  }

  /** How a person knows each of these customers: the email, else the phone (customers with neither are left out). */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; name: string }[] = await this.dataSource.query(
      `SELECT id, COALESCE(email, phone) AS name FROM customers WHERE id = ANY($1::uuid[]) AND COALESCE(email, phone) IS NOT NULL`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  findByProviderCustomerIdOrFail(providerCustomerId: string): Promise<Customer> {
    return this.dataSource.getRepository(Customer).findOneByOrFail({ providerCustomerId });
  }

  /** A page of customers, newest first, only those in `status` when given. */
  page(options: ListOptions & { status?: CustomerStatus; q?: string }): Promise<Page<Customer>> {
    const query = this.dataSource.getRepository(Customer).createQueryBuilder('customer');
    if (options.status) query.andWhere('customer.status = :status', { status: options.status });
    if (options.q !== undefined) {
      // An id matches exactly; anything else is the provider's id or a part of the email (LIKE's wildcards escaped).
      if (UUID.test(options.q)) query.andWhere('customer.id = :id', { id: options.q.toLowerCase() });
      else {
        const part = `%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query.andWhere(`(customer.providerCustomerId = :q OR lower(customer.email) LIKE :part ESCAPE '\\')`, { q: options.q, part });
      }
    }
    return paginate(query, options);
  }

  /**
   * Stores a new customer, due for the follower at once (database time, the follower's clock). A row that
   * already holds the provider customer (a replayed create) is left as it is.
   */
  async insertIfAbsent(values: NewCustomer): Promise<void> {
    await this.dataSource
      .getRepository(Customer)
      .createQueryBuilder()
      .insert()
      .values({
        ...values,
        // jsonb takes the object as it is; TypeORM's deep-partial type cannot express `unknown` values.
        metadata: values.metadata as QueryDeepPartialEntity<Record<string, unknown>>,
        nextSyncAt: () => 'now()',
      })
      .orIgnore()
      .execute();
  }

  /** Locks the customer for the write-back (startBinding locks it first too); undefined when it is gone. */
  async lockForSync(id: string, em: EntityManager): Promise<LockedCustomer | undefined> {
    const [current] = await em.query<LockedCustomer[]>(
      `SELECT status, last_event_id, real_created_at, active_binding_id, announced_binding_id FROM customers WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return current;
  }

  /** Sets ready_at unless it is already set: it keeps the first time. */
  async recordReadyAt(id: string, readyAt: Date, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET ready_at = COALESCE(ready_at, $2) WHERE id = $1`, [id, readyAt]);
  }

  /** Writes the patch, stamped with `now` (business time) as updatedAt. */
  async update(id: string, patch: CustomerSyncPatch, now: Date, em: EntityManager): Promise<void> {
    await em.getRepository(Customer).update(id, { ...patch, updatedAt: now });
  }

  /** Only updatedAt changes (to `now`, business time): readyAt was set. */
  async touch(id: string, now: Date, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET updated_at = $2 WHERE id = $1`, [id, now]);
  }

  /** Sets the event cursor as it is (after the stream was read again from the start). */
  async resetLastEventId(id: string, lastEventId: number | null, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET last_event_id = $2 WHERE id = $1`, [id, lastEventId]);
  }

  /** Moves the event cursor forward only. */
  async advanceLastEventId(id: string, lastEventId: number, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET last_event_id = GREATEST(last_event_id, $2) WHERE id = $1`, [id, lastEventId]);
  }

  /**
   * Sets the next read (null: none). When someone else moved next_sync_at since we took the customer (a binding was
   * just started, or another reader finished), the earlier of the two wins, so a fresh request is never pushed back.
   * A refresh writes this too, without a claim: the follower's claim is the engine's to end.
   */
  async scheduleNextSync(target: SyncTarget, delayMs: number | null, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(
      `UPDATE customers SET next_sync_at = CASE
         WHEN next_sync_at IS NOT DISTINCT FROM $2::timestamptz THEN now() + $3::float8 * interval '1 millisecond'
         ELSE LEAST(next_sync_at, now() + $3::float8 * interval '1 millisecond')
       END
       WHERE id = $1`,
      [target.id, target.observedNextSyncAt, delayMs],
    );
  }

  /**
   * Locks the customer and brings its next read to within `seconds` (an earlier time stays). Returns next_sync_at
   * before and after, so the change can be undone exactly.
   */
  async bringSyncForward(id: string, seconds: number, em: EntityManager): Promise<SyncTimeChange | undefined> {
    // An UPDATE … RETURNING answers [rows, affected count], not the rows alone.
    const [rows] = await em.query<[SyncTimeChange[], number]>(
      `UPDATE customers c SET next_sync_at = LEAST(old.next_sync_at, now() + make_interval(secs => $2))
         FROM (SELECT id, next_sync_at FROM customers WHERE id = $1 FOR UPDATE) old
        WHERE c.id = old.id
        RETURNING old.next_sync_at::text AS before, c.next_sync_at::text AS after`,
      [id, seconds],
    );
    return rows[0];
  }

  /** Puts back next_sync_at as it was before bringSyncForward, unless someone moved it since. */
  async undoSyncForward(id: string, change: SyncTimeChange | undefined, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET next_sync_at = $2::timestamptz WHERE id = $1 AND next_sync_at IS NOT DISTINCT FROM $3::timestamptz`, [
      id,
      change?.before ?? null,
      change?.after ?? null,
    ]);
  }

  /** The follower looks at the customer on its next pass (an earlier time already set stays). */
  /** Due for a read now, by the provider's id; false when no customer of ours has it. */
  async followNowByProviderId(providerCustomerId: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(`UPDATE customers SET next_sync_at = LEAST(next_sync_at, now()) WHERE provider_customer_id = $1`, [
      providerCustomerId,
    ])) as [unknown, number];
    return affected > 0;
  }

  async followNow(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE customers SET next_sync_at = LEAST(next_sync_at, now()) WHERE id = $1`, [id]);
  }
}
