import request from 'supertest';
import { CARDS } from '../support/test-cards';
import { ensureConsoleBuilt } from '../support/console-build';
import { Scenario } from '../scenarios/support/scenario';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';
const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';

interface Dunning {
  status: string;
  maxAttempts: number;
  attemptsMade: number;
  nextAttemptNumber: number | null;
  nextAttemptAt: string | null;
  waitingForNewCard: boolean;
  givesUpAt: string | null;
  lastError: { code: string; class: string | null } | null;
  attempts: { number: number; status: string; errorCode: string | null; class: string | null }[];
}

describe('the admin API reads the console needs', () => {
  let s: Scenario;
  let planId: string;

  beforeAll(async () => {
    s = await Scenario.start({ DUNNING_RETRY_DELAYS: '1d,3d', DUNNING_FINAL_ACTION: 'unpaid' });
    await s.setClock('2027-03-01T09:00:00.000Z');
    planId = (await s.post<{ id: string }>('/api/v1/plans', { name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] })).id;
  });
  afterAll(() => s?.close());

  async function subscribe(card: string, outcomes: string[], email?: string) {
    const customer = await s.post<{ id: string; providerCustomerId: string }>('/api/v1/customers', { email: email ?? `payer-${Math.random().toString(36).slice(2)}@example.com` });
    await s.bindCard(customer.id, card);
    if (outcomes.length > 0) await s.scriptOutcomes(customer.providerCustomerId, outcomes);
    const subscription = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId });
    return { customer, subscription };
  }

  const chargeOf = async (subscriptionId: string) => (await s.get<{ items: { id: string }[] }>(`/api/v1/subscriptions/${subscriptionId}/charges`)).items[0];

  it('says how each charge is collected: attempt n of N, the class of each failure, the next attempt', async () => {
    const soft = await subscribe(CARDS.success, [INSUFFICIENT]);
    const hard = await subscribe(CARDS.success, [EXPIRED]);
    const paid = await subscribe(CARDS.success, []);
    await s.runBilling();

    const softView = await s.get<Dunning>(`/api/v1/charges/${(await chargeOf(soft.subscription.id)).id}/dunning`);
    expect(softView).toMatchObject({
      status: 'retrying',
      maxAttempts: 3,
      attemptsMade: 1,
      nextAttemptNumber: 2,
      nextAttemptAt: '2027-03-02T09:00:00.000Z',
      waitingForNewCard: false,
      givesUpAt: '2027-03-05T09:00:00.000Z',
      lastError: { code: INSUFFICIENT, class: 'soft' },
      attempts: [{ number: 1, status: 'declined', errorCode: INSUFFICIENT, class: 'soft' }],
    });
    const hardView = await s.get<Dunning>(`/api/v1/charges/${(await chargeOf(hard.subscription.id)).id}/dunning`);
    expect(hardView).toMatchObject({ status: 'failed', waitingForNewCard: true, nextAttemptNumber: null, lastError: { code: EXPIRED, class: 'hard' } });
    expect(hardView.attempts.map((a) => a.class)).toEqual(['hard']);
    const paidView = await s.get<Dunning>(`/api/v1/charges/${(await chargeOf(paid.subscription.id)).id}/dunning`);
    expect(paidView).toMatchObject({ status: 'succeeded', attemptsMade: 1, nextAttemptNumber: null, givesUpAt: null, lastError: null, attempts: [{ status: 'succeeded', class: null }] });

    const unknown = await s.api().get('/api/v1/charges/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e/dunning').expect(404);
    expect(unknown.body.code).toBe('not_found');
  }, 120_000);

  it('counts the dashboard figures from what happened: charges today, subscriptions by status, dunning', async () => {
    const dashboard = await s.get<{
      dayStart: string;
      chargesToday: { succeeded: number; declined: number; inFlight: number; byCurrency: { outcome: string; currency: string; count: number; amount: number }[] };
      subscriptionsByStatus: Record<string, number>;
      dunning: { retrying: number; awaitingCard: number; byCurrency: { currency: string; amount: number }[] };
      failingEndpoints: { count: number; items: unknown[] };
    }>('/api/v1/dashboard');
    expect(dashboard.dayStart).toBe('2027-03-01T00:00:00.000Z');
    expect(dashboard.chargesToday).toMatchObject({ succeeded: 1, declined: 2, inFlight: 0 });
    expect(dashboard.chargesToday.byCurrency).toEqual(
      expect.arrayContaining([
        { outcome: 'succeeded', currency: 'RUB', count: 1, amount: 99000 },
        { outcome: 'declined', currency: 'RUB', count: 2, amount: 198000 },
      ]),
    );
    expect(dashboard.subscriptionsByStatus).toEqual({ incomplete: 0, trialing: 0, active: 1, past_due: 2, paused: 0, unpaid: 0, canceled: 0 });
    expect(dashboard.dunning).toEqual({ retrying: 1, awaitingCard: 1, byCurrency: [{ currency: 'RUB', retrying: 1, awaitingCard: 1, amount: 198000 }] });
    expect(dashboard.failingEndpoints).toEqual({ count: 0, items: [] });

    // Tomorrow nothing has been attempted yet.
    await s.setClock('2027-03-02T00:30:00.000Z');
    expect((await s.get<{ chargesToday: { succeeded: number; declined: number } }>('/api/v1/dashboard')).chargesToday).toMatchObject({ succeeded: 0, declined: 0 });
  }, 60_000);

  it('finds customers by id, by the provider id, or by any part of the email, paged like every list', async () => {
    const jane = await s.post<{ id: string; providerCustomerId: string }>('/api/v1/customers', { email: 'Jane.Roe@Example.com' });
    await s.post('/api/v1/customers', { email: 'john_doe@example.org' });
    const search = async (q: string) => (await s.api().get('/api/v1/customers').query({ q, limit: 50 }).expect(200)).body.items.map((c: { id: string }) => c.id) as string[];
    expect(await search('jane.roe')).toEqual([jane.id]);
    expect(await search('ROE@EXAMPLE.COM')).toEqual([jane.id]);
    expect(await search(jane.id.toUpperCase())).toEqual([jane.id]);
    expect(await search(jane.providerCustomerId)).toEqual([jane.id]);
    // LIKE's wildcards are plain characters here.
    expect(await search('%')).toEqual([]);
    expect(await search('n_d')).toHaveLength(1);
    expect(await search('nobody')).toEqual([]);
    const paged = await s.api().get('/api/v1/customers').query({ q: 'example', limit: 1 }).expect(200);
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.nextCursor).toEqual(expect.any(String));
    for (const q of ['', 'x'.repeat(201), 'a\u0000b']) {
      const refused = await s.api().get('/api/v1/customers').query({ q }).expect(400);
      expect({ q, code: refused.body.code, field: refused.body.field }).toEqual({ q, code: 'validation_failed', field: 'q' });
    }
  });

  it('serves the console at /console and under every deep link, with a strict Content-Security-Policy and no data', async () => {
    ensureConsoleBuilt();
    const http = () => request(s.app.getHttpServer());
    const nonces = new Set<string>();
    for (const path of ['/console', '/console/', '/console/subscriptions/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e', '/console/payouts/upload']) {
      const res = await http().get(path).expect(200).expect('content-type', /text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
      expect(res.text).toContain(`<meta name="csp-nonce" content="${nonce}"`);
      nonces.add(nonce);
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(nonces.size).toBe(4);
    const html = (await http().get('/console').expect(200)).text;
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(script).toMatch(/^\/console\/assets\/index-[\w-]+\.js$/);
    const asset = await http().get(script).expect(200).expect('content-type', /javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const path of ['/console/assets/missing.js', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/../index.html', '/console/.vite/manifest.json']) {
      const res = await http().get(path);
      expect({ path, status: res.status === 404 || (res.status === 200 && res.text.includes('csp-nonce')) }).toEqual({ path, status: true });
    }
    // Only reading is served; other methods are routes nobody serves (or the session's own).
    await http().post('/console').set('content-type', 'application/json').send('{}').expect(404);
  });
});
