import type TestAgent from 'supertest/lib/agent';
import { waitFor } from '../../support/wait';
import type { ReceivedDelivery } from './merchant-receiver';

export type Api = () => TestAgent;

export interface EventView {
  id: string;
  type: string;
  createdAt: string;
  actor: ReceivedDelivery['event']['actor'];
  data: ReceivedDelivery['event']['data'];
}

export interface AttemptView {
  id: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** The webhook timings shortened for tests: retries within a second, the whole window in seconds. */
export const FAST_WEBHOOK_TUNING = { retryDelaysMs: [200, 400, 800], repeatDelayMs: 1_000, giveUpAfterMs: 60_000, jitter: 0.1 };

export async function createEndpoint(api: Api, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await api().post('/api/v1/webhook-endpoints').send(body);
  if (res.status !== 201) throw new Error(`POST /api/v1/webhook-endpoints answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, secret: res.body.secret as string };
}

/** Every page of a list, newest first. */
async function allPages<T>(api: Api, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  do {
    const res = await api()
      .get(path)
      .query({ ...query, limit: 200, ...(cursor ? { cursor } : {}) });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    all.push(...(res.body.items as T[]));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return all;
}

/** Every event as its webhooks carry it: the list's read-only `about` (names of what it is about) left out. */
export async function allEvents(api: Api, type?: string): Promise<EventView[]> {
  const listed = await allPages<EventView & { about?: unknown }>(api, '/api/v1/events', type ? { type } : {});
  return listed.map(({ about: _about, ...event }) => event);
}

export function allAttempts(api: Api, endpointId: string, query: Record<string, string> = {}): Promise<AttemptView[]> {
  return allPages<AttemptView>(api, `/api/v1/webhook-endpoints/${endpointId}/deliveries`, query);
}

/** Polls `probe` until it answers something (not undefined), and answers that. */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string, everyMs = 20): Promise<T> {
  return (await waitFor(probe, (value) => value !== undefined, { timeoutMs, everyMs, what })) as T;
}
