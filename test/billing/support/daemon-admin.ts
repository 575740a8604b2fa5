import { Client } from 'pg';
import type { DaemonProcess } from '../../support/daemon';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import type { ChargeView } from './exactly-once';

/** The admin API of a daemon process, as a merchant's back end calls it. */
export class DaemonAdmin {
  constructor(private readonly daemon: DaemonProcess) {}

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.daemon.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async expect(method: 'GET' | 'POST', path: string, status: number, body?: unknown): Promise<Record<string, unknown>> {
    const res = await this.call(method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  setClock(now: string): Promise<Record<string, unknown>> {
    return this.expect('POST', '/api/v1/test-clock', 200, { now });
  }

  /** Every item of a list route, all pages. */
  async listAll<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.expect('GET', `${path}${path.includes('?') ? '&' : '?'}limit=200${cursor ? `&cursor=${cursor}` : ''}`, 200);
      items.push(...(page.items as T[]));
      cursor = page.nextCursor as string | null;
    } while (cursor);
    return items;
  }

  charges(): Promise<ChargeView[]> {
    return this.listAll<ChargeView>('/api/v1/charges');
  }

  /** A counter or gauge as GET /metrics shows it (0 when absent). */
  async metric(name: string): Promise<number> {
    const text = await (await fetch(`${this.daemon.baseUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) : 0;
  }
}

/** One query on a database of the test, on a connection of its own. */
export async function queryDatabase<T extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(sql, params)).rows;
  } finally {
    await db.end();
  }
}
