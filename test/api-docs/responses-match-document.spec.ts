import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMITTED_DOCUMENT_PATH } from '../../src/common/api-docs/api-description';
import { CARDS, CARD_EXP_DATE } from '../support/test-cards';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { DocumentValidator } from './support/document-validator';

type Body = Record<string, unknown> & { id: string };

interface Request {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The admin token unless set; null sends none. */
  token?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
}

/**
 * A walk over every operation of the API, over real HTTP against the daemon and its sandbox, as an integrator's
 * client makes it: plans, customers binding cards (one at once, one that waits for 3-D Secure, one refused),
 * subscriptions billed, declined, retried, paused, resumed and canceled, refunds, payouts, events and webhook endpoints,
 * and the usual refusals. Every answer is checked against the committed document (ajv, strict).
 */
describe('Every answer of a walk over the whole API matches docs/openapi.json (ajv, strict mode)', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '..', '..', COMMITTED_DOCUMENT_PATH), 'utf8')) as Record<string, unknown>;
  const validator = new DocumentValidator(document);
  let t: TestApp;

  async function call<T = Body>(method: string, template: string, request: Request = {}): Promise<{ status: number; body: T }> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.path?.[name] ?? ''));
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
    const token = request.token === undefined ? TEST_ADMIN_TOKEN : request.token;
    const hasBody = request.body !== undefined || request.rawBody !== undefined;
    const res = await fetch(`${t.url}${path}${query}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
        ...request.headers,
      },
      body: request.rawBody ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined),
    });
    const contentType = res.headers.get('content-type') ?? '';
    const text = await res.text();
    const body = contentType.startsWith('application/json') && text ? (JSON.parse(text) as unknown) : text;
    validator.check({ method, path: template, status: res.status, contentType, body });
    return { status: res.status, body: body as T };
  }

  const ok = async <T = Body>(method: string, template: string, request: Request = {}): Promise<T> => {
    const res = await call<T>(method, template, request);
    if (res.status >= 300) throw new Error(`${method} ${template} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** Tokenizes a card at the sandbox as the payer's browser would, and hands it to the daemon. */
  async function startBinding(customer: Body, cardNumber: string): Promise<Body> {
    const { paymentToolToken, paymentSession } = await t.sandboxClient.tokenize(cardNumber, CARD_EXP_DATE);
    return ok('POST', '/api/v1/customers/{id}/bindings', { path: { id: customer.id }, body: { paymentToolToken, paymentSession } });
  }

  const bindingSettled = (customer: Body, binding: Body) =>
    waitFor(
      () => ok('GET', '/api/v1/customers/{id}/bindings/{bindingId}', { path: { id: customer.id, bindingId: binding.id } }),
      (b) => b.status !== 'pending',
      { timeoutMs: 20_000, everyMs: 100, what: `binding ${binding.id} settled` },
    );

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '3600000' }, listen: true, billingTuning: { paymentPollMs: 3000 } });
  });
  afterAll(() => t?.close());

  it('walks every operation, and no answer disagrees with the document', async () => {
    // Public routes, and the refusals every admin route shares.
    await call('GET', '/health/live', { token: null });
    await call('GET', '/health/ready', { token: null });
    await call('GET', '/metrics', { token: null });
    await call('GET', '/api/v1/plans', { token: null });
    await call('GET', '/api/v1/plans', { token: 'wrong-token-0123456789' });
    await call('POST', '/webhooks/provider', { token: null, rawBody: '{"eventID":1}', headers: { 'Content-Signature': 'alg=RS256; digest=AAAA' } });

    await ok('GET', '/api/v1/test-clock');
    await ok('POST', '/api/v1/test-clock', { body: { now: '2031-03-01T09:00:00.000Z' } });
    await call('POST', '/api/v1/test-clock', { body: { now: '2030-01-01T00:00:00.000Z' } }); // backwards: 409

    // Plans.
    const plan = await ok('POST', '/api/v1/plans', { body: { name: 'Pro', product: 'Pro plan', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 50000 }] } });
    const laddered = await ok('POST', '/api/v1/plans', {
      headers: { 'Idempotency-Key': 'walk-plan-1' },
      body: { name: 'Team', product: 'Team', description: 'Yearly', currency: 'RUB', interval: 'year', intervalCount: 1, trialDays: 0, metadata: { tier: 'b' }, dunning: { retryDelays: ['1d'], finalAction: 'unpaid' }, setupFee: 9900, setupFeeTaxRate: '22%', lines: [{ product: 'Seat', price: 900, quantity: 3, taxRate: '22%' }] },
    });
    await call('POST', '/api/v1/plans', { body: { name: '', lines: [] } });
    await call('POST', '/api/v1/plans', { rawBody: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    await ok('GET', '/api/v1/plans', { query: { limit: '1' } });
    await ok('GET', '/api/v1/plans/{id}', { path: { id: plan.id } });
    await call('GET', '/api/v1/plans/{id}', { path: { id: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e' } });
    await call('GET', '/api/v1/plans/{id}', { path: { id: 'not-a-uuid' } });
    await ok('PATCH', '/api/v1/plans/{id}', { path: { id: laddered.id }, body: { description: 'Yearly, three seats', dunning: null } });
    const archived = await ok('POST', '/api/v1/plans', { body: { name: 'Old', product: 'Old', currency: 'RUB', interval: 'week', lines: [{ product: 'x', price: 100 }] } });
    await ok('POST', '/api/v1/plans/{id}/archive', { path: { id: archived.id } });
    await ok('POST', '/api/v1/plans', { body: { name: 'Smart', product: 'Smart', currency: 'RUB', interval: 'month', dunning: { strategy: 'smart', maxDays: 14, finalAction: 'cancel' }, lines: [{ product: 'x', price: 100 }] } });
    await call('POST', '/api/v1/plans', { body: { name: 'Bad', product: 'Bad', currency: 'RUB', interval: 'month', dunning: { strategy: 'smart', retryDelays: ['1d'], finalAction: 'cancel' }, lines: [{ product: 'x', price: 100 }] } });
    const repriced = await ok('POST', '/api/v1/plans', { body: { name: 'Pro 22', product: 'Pro plan', currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 50900, taxRate: '22%' }] } });
    const migration = await ok('POST', '/api/v1/plans/{id}/migrations', { path: { id: plan.id }, body: { toPlanId: repriced.id, noticeDays: 14 } });
    await ok('GET', '/api/v1/plan-migrations/{id}', { path: { id: migration.id } });
    await call('POST', '/api/v1/plans/{id}/migrations', { path: { id: plan.id }, body: { toPlanId: archived.id } });
    // Coupons: made (a percentage for some periods, an amount forever), refused, listed, read, archived.
    const coupon = await ok('POST', '/api/v1/coupons', { body: { code: 'walk50', name: 'Walk', percentOff: 50, duration: 'repeating', durationPeriods: 2, appliesToPlans: [plan.id] } });
    await ok('POST', '/api/v1/coupons', { body: { name: 'Flat', amountOff: 500, currency: 'RUB', duration: 'forever', maxRedemptions: 10, redeemBy: '2040-01-01T00:00:00Z', firstTimeOnly: true } });
    await call('POST', '/api/v1/coupons', { body: { name: 'Both', percentOff: 10, amountOff: 10, currency: 'RUB', duration: 'once' } });
    await ok('GET', '/api/v1/coupons', { query: { status: 'active' } });
    await ok('GET', '/api/v1/coupons/{id}', { path: { id: coupon.id } });
    const oldCoupon = await ok('POST', '/api/v1/coupons', { body: { code: 'WALKOLD', name: 'Old', percentOff: 5, duration: 'once' } });
    await ok('POST', '/api/v1/coupons/{id}/archive', { path: { id: oldCoupon.id } });
    await ok('GET', '/api/v1/dunning/rules');
    await ok('GET', '/api/v1/reports/revenue', { query: { from: '2031-03-01T00:00:00Z', to: '2031-04-01T00:00:00Z', interval: 'week', currency: 'RUB' } });
    await call('GET', '/api/v1/reports/revenue', { query: { from: '2031-03-01T00:00:00Z', to: '2031-02-01T00:00:00Z' } });

    // Customers: one binds a card at once (it is then declined for every charge), one waits for 3-D Secure, one is refused.
    const payer = await ok('POST', '/api/v1/customers', { body: { email: 'payer@example.com', metadata: { crm: '17' } } });
    await ok('POST', '/api/v1/customers/{id}/access-token', { path: { id: payer.id } });
    await bindingSettled(payer, await startBinding(payer, CARDS.renewalInsufficientFunds));
    await waitFor(() => ok('POST', '/api/v1/customers/{id}/refresh', { path: { id: payer.id } }), (c) => c.status === 'ready', { timeoutMs: 20_000, everyMs: 200, what: 'payer ready' });
    const waiting = await ok('POST', '/api/v1/customers', { body: { phone: '+79990001122' } });
    const threeDs = await startBinding(waiting, CARDS.threeDsSuccess);
    await waitFor(() => ok('GET', '/api/v1/customers/{id}', { path: { id: waiting.id } }), (c) => Boolean((c.pendingBinding as Body | null)?.interaction), {
      timeoutMs: 20_000,
      everyMs: 100,
      what: 'a binding waiting for 3-D Secure',
    });
    await ok('GET', '/api/v1/customers/{id}/bindings/{bindingId}', { path: { id: waiting.id, bindingId: threeDs.id } });
    const refused = await ok('POST', '/api/v1/customers', { body: {} });
    await bindingSettled(refused, await startBinding(refused, CARDS.insufficientFunds));
    await ok('GET', '/api/v1/customers', { query: { status: 'ready' } });
    await ok('GET', '/api/v1/customers/{id}/bindings', { path: { id: refused.id } });

    // Subscriptions: billed now and declined, retried by hand, paused, resumed, canceled.
    const subscription = await ok('POST', '/api/v1/subscriptions', { body: { customerId: payer.id, planId: plan.id, timezone: 'Europe/Moscow', metadata: { order: 'A-1' } } });
    const incomplete = await ok('POST', '/api/v1/subscriptions', { body: { customerId: waiting.id, planId: laddered.id } });
    await call('POST', '/api/v1/subscriptions', { body: { customerId: payer.id, planId: archived.id } });
    await ok('POST', '/api/v1/subscriptions/{id}/discount', { path: { id: subscription.id }, body: { couponCode: 'WALK50' } });
    await call('POST', '/api/v1/subscriptions/{id}/discount', { path: { id: subscription.id }, body: { couponCode: 'WALKOLD' } }); // archived: 422
    await ok('DELETE', '/api/v1/subscriptions/{id}/discount', { path: { id: subscription.id } });
    await ok('POST', '/api/v1/subscriptions/{id}/discount', { path: { id: subscription.id }, body: { couponCode: 'WALK50' } });
    await ok('POST', '/api/v1/billing/run');
    const charges = await ok<{ items: Body[] }>('GET', '/api/v1/charges', { query: { subscriptionId: subscription.id } });
    const charge = charges.items[0];
    await ok('GET', '/api/v1/charges/{id}', { path: { id: charge.id } });
    await ok('GET', '/api/v1/charges/{id}/dunning', { path: { id: charge.id } });
    await ok('POST', '/api/v1/charges/{id}/recovery-link', { path: { id: charge.id }, body: {} });
    await call('POST', '/api/v1/charges/{id}/retry', { path: { id: charge.id } });
    await ok('GET', '/api/v1/subscriptions/{id}/charges', { path: { id: subscription.id } });
    // A one-off now (this card declines it: failed), its repeat by reference, a pending item for the next renewal.
    const oneOff = { lines: [{ product: 'Onboarding', price: 15000, taxRate: '22%' }], currency: 'RUB', description: 'Setup call', reference: 'walk-one-off' };
    await ok('POST', '/api/v1/customers/{id}/charges', { path: { id: payer.id }, body: oneOff });
    await ok('POST', '/api/v1/customers/{id}/charges', { path: { id: payer.id }, body: oneOff });
    await call('POST', '/api/v1/customers/{id}/charges', { path: { id: payer.id }, body: { ...oneOff, lines: [] } });
    const item = await ok('POST', '/api/v1/customers/{id}/charges', {
      path: { id: payer.id },
      headers: { 'Idempotency-Key': 'walk-item-1' },
      body: { lines: [{ product: 'Extra seat', price: 1500, quantity: 2 }], currency: 'RUB', when: 'next_renewal', subscriptionId: subscription.id },
    });
    await ok('GET', '/api/v1/subscriptions/{id}/pending-items', { path: { id: subscription.id } });
    await ok('GET', '/api/v1/customers/{id}/pending-items', { path: { id: payer.id }, query: { status: 'pending' } });
    await ok('GET', '/api/v1/pending-items/{id}', { path: { id: item.id } });
    await ok('DELETE', '/api/v1/pending-items/{id}', { path: { id: item.id } });
    await ok('GET', '/api/v1/customers/{id}/balance', { path: { id: payer.id } });
    await ok('GET', '/api/v1/subscriptions', { query: { status: 'past_due' } });
    await ok('GET', '/api/v1/subscriptions/{id}', { path: { id: subscription.id } });
    await ok('POST', '/api/v1/subscriptions/{id}/pause', { path: { id: incomplete.id } });
    await ok('POST', '/api/v1/subscriptions/{id}/resume', { path: { id: incomplete.id } });
    await call('POST', '/api/v1/subscriptions/{id}/resume', { path: { id: incomplete.id } }); // not paused: 409
    await ok('POST', '/api/v1/subscriptions/{id}/cancel', { path: { id: incomplete.id }, body: { atPeriodEnd: false } });
    await ok('POST', '/api/v1/subscriptions/{id}/cancel', { path: { id: subscription.id } });
    await ok('GET', '/api/v1/subscriptions/{id}/events', { path: { id: incomplete.id } });

    // Changes: a trial changes plan or seats with nothing charged; a past_due one must be collected first (409).
    const trialPlan = await ok('POST', '/api/v1/plans', { body: { name: 'Trial', product: 'Trial', currency: 'RUB', interval: 'month', trialDays: 7, lines: [{ product: 'Seat', price: 1000 }] } });
    const trialing = await ok('POST', '/api/v1/subscriptions', { body: { customerId: payer.id, planId: trialPlan.id } });
    await ok('POST', '/api/v1/subscriptions/{id}/change/preview', { path: { id: trialing.id }, body: { quantity: 2 } });
    await ok('POST', '/api/v1/subscriptions/{id}/change', { path: { id: trialing.id }, body: { planId: plan.id, effective: 'now' } });
    await ok('POST', '/api/v1/subscriptions/{id}/change', { path: { id: trialing.id }, body: { quantity: 2, effective: 'period_end' } });
    await ok('DELETE', '/api/v1/subscriptions/{id}/change', { path: { id: trialing.id } });
    await call('POST', '/api/v1/subscriptions/{id}/change', { path: { id: subscription.id }, body: { quantity: 2 } });
    await call('POST', '/api/v1/subscriptions/{id}/change/preview', { path: { id: trialing.id }, body: {} });

    // Refunds: a paid charge refunded to its card and to the balance; the declined one and too much refused.
    const paying = await ok('POST', '/api/v1/customers', { body: { email: 'paying@example.com' } });
    await bindingSettled(paying, await startBinding(paying, CARDS.success));
    await waitFor(() => ok('POST', '/api/v1/customers/{id}/refresh', { path: { id: paying.id } }), (c) => c.status === 'ready', { timeoutMs: 20_000, everyMs: 200, what: 'paying ready' });
    const paid = await ok('POST', '/api/v1/subscriptions', { body: { customerId: paying.id, planId: plan.id } });
    await ok('POST', '/api/v1/billing/run');
    const paidCharge = await waitFor(async () => (await ok<{ items: Body[] }>('GET', '/api/v1/charges', { query: { subscriptionId: paid.id } })).items[0], (c) => c?.status === 'succeeded', {
      timeoutMs: 20_000,
      everyMs: 200,
      what: 'a paid charge',
    });
    const refund = await ok('POST', '/api/v1/charges/{id}/refunds', {
      path: { id: paidCharge.id },
      headers: { 'Idempotency-Key': 'walk-refund-1' },
      body: { amount: 1000, reason: 'requested_by_customer', reference: 'walk-refund' },
    });
    await ok('POST', '/api/v1/charges/{id}/refunds', { path: { id: paidCharge.id }, body: { amount: 1000, reason: 'requested_by_customer', reference: 'walk-refund' } }); // the same: 200
    await ok('POST', '/api/v1/charges/{id}/refunds', { path: { id: paidCharge.id }, body: { amount: 1000, to: 'balance' } });
    await call('POST', '/api/v1/charges/{id}/refunds', { path: { id: charge.id }, body: {} }); // declined: 409
    await call('POST', '/api/v1/charges/{id}/recovery-link', { path: { id: paidCharge.id }, body: {} }); // paid: 409
    await call('POST', '/api/v1/charges/{id}/refunds', { path: { id: paidCharge.id }, body: { amount: 10_000_000 } }); // too much: 422
    await ok('GET', '/api/v1/refunds', { query: { chargeId: paidCharge.id } });
    await ok('GET', '/api/v1/refunds/{id}', { path: { id: refund.id } });
    await call('GET', '/api/v1/refunds/{id}', { path: { id: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e' } });

    // Payouts.
    await call('GET', '/api/v1/payouts/setup'); // not set up yet: 404
    await ok('POST', '/api/v1/payouts/setup', { body: { identityName: 'Walk Ltd', provider: 'test', class: 'company', walletName: 'Main', currency: 'RUB' } });
    await ok('GET', '/api/v1/payouts/setup');
    const destination = await ok('POST', '/api/v1/payouts/destinations', { body: { name: 'Courier', currency: 'RUB', card: { cardNumber: CARDS.success, expDate: '12/40', cardHolder: 'IVAN PETROV' } } });
    await ok('GET', '/api/v1/payouts/destinations');
    await waitFor(() => ok('GET', '/api/v1/payouts/destinations/{id}', { path: { id: destination.id } }), (d) => d.status === 'Authorized', {
      timeoutMs: 20_000,
      everyMs: 200,
      what: 'destination authorized',
    });
    const payout = await ok('POST', '/api/v1/payouts', { body: { destinationId: destination.id, amount: 700, currency: 'RUB', metadata: { shift: '17' } } });
    const batch = await ok('POST', '/api/v1/payouts/batches', { body: { items: [{ destinationId: destination.id, amount: 800, currency: 'RUB' }] } });
    await waitFor(() => ok('GET', '/api/v1/payouts/{id}', { path: { id: payout.id } }), (p) => p.status === 'succeeded', { timeoutMs: 20_000, everyMs: 200, what: 'payout paid' });
    await ok('GET', '/api/v1/payouts', { query: { batchId: batch.id } });
    await ok('GET', '/api/v1/payouts/batches');
    await ok('GET', '/api/v1/payouts/batches/{id}', { path: { id: batch.id } });

    // Events and webhook endpoints (nothing listens at the URL: no delivery is awaited).
    const endpoint = await ok('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks/billing' } });
    await call('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks', events: ['no.such'] } });
    await ok('GET', '/api/v1/webhook-endpoints');
    await ok('GET', '/api/v1/webhook-endpoints/{id}', { path: { id: endpoint.id } });
    await ok('PATCH', '/api/v1/webhook-endpoints/{id}', { path: { id: endpoint.id }, body: { description: null, events: ['charge.succeeded', 'charge.failed'] } });
    await ok('POST', '/api/v1/webhook-endpoints/{id}/rotate-secret', { path: { id: endpoint.id } });
    const events = await ok<{ items: Body[] }>('GET', '/api/v1/events', { query: { limit: '200' } });
    for (const event of events.items.slice(0, 20)) await ok('GET', '/api/v1/events/{id}', { path: { id: event.id } });
    await ok('POST', '/api/v1/events/{id}/redeliver', { path: { id: events.items[0].id }, body: { endpointId: endpoint.id } });
    await ok('GET', '/api/v1/webhook-endpoints/{id}/deliveries', { path: { id: endpoint.id } });
    // A body where none is taken, in another media type: whatever the answer, the document must list it.
    await call('DELETE', '/api/v1/webhook-endpoints/{id}', { path: { id: endpoint.id }, rawBody: 'x', headers: { 'Content-Type': 'text/plain' } });
    await ok('DELETE', '/api/v1/webhook-endpoints/{id}', { path: { id: endpoint.id } });

    // API keys: made (shown once), read, listed, used, refused a scope, revoked.
    const apiKey = await ok('POST', '/api/v1/api-keys', { body: { name: 'walk', scopes: ['plans:read'], expiresAt: '2099-01-01T00:00:00Z' } });
    await ok('GET', '/api/v1/api-keys');
    await ok('GET', '/api/v1/api-keys/{id}', { path: { id: apiKey.id } });
    await ok('GET', '/api/v1/plans', { token: apiKey.key as string });
    await call('GET', '/api/v1/customers', { token: apiKey.key as string }); // 403 insufficient_scope
    await ok('DELETE', '/api/v1/api-keys/{id}', { path: { id: apiKey.id } });

    // The console's session (signed in with the token, read, signed out; a wrong token and a text body refused) and its dashboard.
    await call('POST', '/console/session', { token: null, body: { token: 'wrong-token-0123456789' } });
    await ok('POST', '/console/session', { token: null, body: { token: TEST_ADMIN_TOKEN } });
    await ok('GET', '/console/session', { token: null });
    await call('DELETE', '/console/session', { token: null, rawBody: 'x', headers: { 'Content-Type': 'text/plain' } });
    await ok('DELETE', '/console/session', { token: null });
    await ok('GET', '/api/v1/dashboard');

    // Every list once more, now that they hold every kind of object.
    for (const list of ['/api/v1/plans', '/api/v1/customers', '/api/v1/subscriptions', '/api/v1/charges', '/api/v1/refunds', '/api/v1/payouts', '/api/v1/events']) await ok('GET', list);

    expect(validator.failures).toEqual([]);
    const unanswered = validator.operations().filter((operation) => ![...(validator.seen.get(operation) ?? [])].some((status) => status < 300));
    // The provider's webhook takes only deliveries signed by the provider: the walk sees its refusal.
    expect(unanswered).toEqual(['POST /webhooks/provider']);
    expect(validator.seen.get('POST /webhooks/provider')?.size).toBe(1);
    expect(validator.checked).toBeGreaterThan(100);
  }, 180_000);
});
