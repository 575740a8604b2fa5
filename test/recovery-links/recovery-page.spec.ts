import { RecoveryLinksService } from '../../src/recovery-links/recovery-links.service';
import { Scenario } from '../scenarios/support/scenario';
import { testDatabaseUrl } from '../support/test-database';
import { startTestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { sleep, waitFor } from '../support/wait';
import { Client } from 'pg';
import request from 'supertest';
import { actionRequiredOf, anonymous, ChargeView, declinedSubscriber, NOON_IN_MOSCOW, pathOf } from './recovery-story';

/**
 * The recovery link's page over real HTTP: what it shows, to whom, and what every link that cannot be used answers
 * (a tampered token exactly like an unknown path; expired, revoked and paid 410).
 */
describe('recovery links: the page', () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await Scenario.start({ LOG_LEVEL: 'warn' });
    await s.setClock(NOON_IN_MOSCOW);
  });

  afterAll(() => s?.close());

  it('announces charge.action_required once with a link whose page shows the amount, plan and masked card, under a strict policy', async () => {
    const { charge } = await declinedSubscriber(s, 'Pro <b>plan</b>');
    expect(charge).toMatchObject({ status: 'failed', waitingForNewCard: true });
    const events = await actionRequiredOf(s, charge.id);
    expect(events).toHaveLength(1);
    expect(events[0].data.object).toMatchObject({ id: charge.id, status: 'failed', waitingForNewCard: true });
    const url = events[0].data.recoveryUrl as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);

    const ru = await anonymous(s).get(pathOf(url)).set('Accept-Language', 'ru-RU,ru;q=0.9,en;q=0.5');
    expect(ru.status).toBe(200);
    expect(ru.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    expect(ru.text).toContain('<html lang="ru">');
    expect(ru.text).toContain('990,00\u00a0₽');
    // The plan's name is text, never markup.
    expect(ru.text).toContain('Pro &lt;b&gt;plan&lt;/b&gt;');
    expect(ru.text).toContain('•••• 4242');
    expect(ru.text).toContain('name="viewport"');
    const policy = ru.headers['content-security-policy'] as string;
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self' http:\/\/127\.0\.0\.1:\d+; base-uri 'none'; frame-ancestors 'none'$/);
    expect(ru.headers['referrer-policy']).toBe('no-referrer');
    expect(ru.headers['cache-control']).toBe('no-store');
    // Nothing on the page names another host: no absolute URL at all (the form posts to the page's own path).
    expect(ru.text).not.toMatch(/https?:\/\//);
    expect(ru.text).not.toMatch(/<script|<img|<link|<iframe|url\(/i);
    expect(ru.text).toContain(`<form method="post" action="${pathOf(url)}">`);

    const en = await anonymous(s).get(pathOf(url)).set('Accept-Language', 'en-GB,en;q=0.9');
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('RUB\u00a0990.00');
  });

  it('answers a tampered or unknown token exactly as an unknown path, and reads nothing for it', async () => {
    const { charge } = await declinedSubscriber(s);
    const [event] = await actionRequiredOf(s, charge.id);
    const path = pathOf(event.data.recoveryUrl as string);
    const mac = path.slice(-43);
    const tampered = `${path.slice(0, -43)}${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const unknownPath = `/nothing-here/${path.slice('/pay/'.length)}`;
    const unknown = await anonymous(s).get(unknownPath);
    expect(unknown.status).toBe(404);
    for (const bad of [tampered, `/pay/${charge.id}`, '/pay/not-a-token', `${path}x`]) {
      const answer = await anonymous(s).get(bad);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(answer.body).toEqual({ ...unknown.body, message: `Cannot GET ${bad}` });
      expect(answer.headers['content-security-policy']).toBeUndefined();
      const post = await anonymous(s).post(bad);
      expect(post.status).toBe(404);
      expect(post.body).toEqual({ ...unknown.body, message: `Cannot POST ${bad}` });
    }
  });

  it("sends the button to the card form with the link's own customer and a token made at the click", async () => {
    const { customer, charge } = await declinedSubscriber(s);
    const [event] = await actionRequiredOf(s, charge.id);
    const before = (await s.sandboxRequests('createCustomerAccessToken')).length;
    const answer = await anonymous(s).post(pathOf(event.data.recoveryUrl as string));
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.location as string);
    expect(location.origin).toBe(new URL(s.sandbox.url).origin);
    expect(location.pathname).toBe('/sandbox/hosted-form');
    expect(location.searchParams.get('customerID')).toBe(customer.providerCustomerId);
    expect(location.searchParams.get('customerAccessToken')).toEqual(expect.any(String));
    expect((await s.sandboxRequests('createCustomerAccessToken')).length).toBe(before + 1);
  });

  it("never shows or binds for another customer: a link's row names its charge and that charge's customer", async () => {
    const a = await declinedSubscriber(s);
    const b = await declinedSubscriber(s);
    await s.bindCard(b.customer.id, CARDS.secondSuccess);
    const [event] = await actionRequiredOf(s, a.charge.id);
    const path = pathOf(event.data.recoveryUrl as string);
    const page = await anonymous(s).get(path);
    expect(page.text).toContain('•••• 4242');
    expect(page.text).not.toContain('4444');
    // A row altered to name B (as if someone could write the table) serves nothing: the charge is A's.
    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      await db.query(`UPDATE recovery_links SET customer_id = $1 WHERE id = $2`, [b.customer.id, path.slice('/pay/'.length, '/pay/'.length + 36)]);
    } finally {
      await db.end();
    }
    expect((await anonymous(s).get(path)).status).toBe(404);
    expect((await anonymous(s).post(path)).status).toBe(404);
  });

  it('mints a fresh link by the admin route, which revokes the earlier one (410), and refuses a paid charge (409)', async () => {
    const { customer, charge } = await declinedSubscriber(s);
    const [event] = await actionRequiredOf(s, charge.id);
    const minted = await s.api().post(`/api/v1/charges/${charge.id}/recovery-link`).send({});
    expect(minted.status).toBe(200);
    expect(Object.keys(minted.body).sort()).toEqual(['expiresAt', 'url']);
    const ttlMs = new Date(minted.body.expiresAt).getTime() - Date.now();
    expect(ttlMs).toBeGreaterThan(13.9 * 86_400_000);
    expect(ttlMs).toBeLessThanOrEqual(14 * 86_400_000);
    const old = await anonymous(s).get(pathOf(event.data.recoveryUrl as string)).set('Accept-Language', 'en');
    expect(old.status).toBe(410);
    expect(old.text).toContain('no longer valid');
    expect(old.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect((await anonymous(s).post(pathOf(event.data.recoveryUrl as string))).status).toBe(410);
    expect((await anonymous(s).get(pathOf(minted.body.url as string))).status).toBe(200);

    // The customer binds a new card: the charge is paid, and its link says so.
    await s.bindCard(customer.id, CARDS.secondSuccess);
    await waitFor(
      async () => {
        // No scheduler here: a pass works the charge the new card woke.
        await s.runBilling();
        return (await s.get<ChargeView>(`/api/v1/charges/${charge.id}`)).status;
      },
      (status) => status === 'succeeded',
      { timeoutMs: 60_000, what: 'the charge paid with the new card' },
    );
    const paid = await anonymous(s).get(pathOf(minted.body.url as string)).set('Accept-Language', 'ru');
    expect(paid.status).toBe(410);
    expect(paid.text).toContain('Уже оплачено');
    const refused = await s.api().post(`/api/v1/charges/${charge.id}/recovery-link`).send({});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('charge_already_paid');
    expect((await s.api().post(`/api/v1/charges/${customer.id}/recovery-link`).send({})).status).toBe(404);
    expect((await anonymous(s).post(`/api/v1/charges/${charge.id}/recovery-link`).send({})).status).toBe(401);
  });

  it('ends a link after RECOVERY_LINK_TTL in real time (410), and limits the page per client address', async () => {
    const { charge } = await declinedSubscriber(s);
    const short = await startTestApp({ sandbox: s.sandbox, env: { TEST_CLOCK: 'true', RECOVERY_LINK_TTL: '1s', RECOVERY_PAGE_RATE_LIMIT: '3/m' } });
    try {
      const link = await short.app.get(RecoveryLinksService).mint({ chargeId: charge.id, customerId: charge.customerId });
      const path = pathOf(link?.url as string);
      expect((await request(short.app.getHttpServer()).get(path)).status).toBe(200);
      await sleep(1100);
      const expired = await request(short.app.getHttpServer()).get(path).set('Accept-Language', 'en');
      expect(expired.status).toBe(410);
      expect(expired.text).toContain('This link has expired');
      // The page's own limit (3/m, a burst of 6) is per address, and spends nothing of any API credential.
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await request(short.app.getHttpServer()).get(path)).status);
      expect(statuses.slice(0, 4)).toEqual([410, 410, 410, 410]);
      expect(statuses.slice(4)).toEqual([429, 429]);
    } finally {
      await short.close();
    }
  });

  it('is off with a real provider and no PROVIDER_CHECKOUT_URL (the route refuses, an older link says the form is unavailable), on with one', async () => {
    const { charge } = await declinedSubscriber(s);
    const [event] = await actionRequiredOf(s, charge.id);
    const real = { PROVIDER_URL: s.sandbox.url, PROVIDER_API_KEY: 'sandbox-api-key', PROVIDER_SHOP_ID: 'sandbox-shop', TEST_CLOCK: 'true' };
    const withoutForm = await startTestApp({ sandbox: s.sandbox, env: real });
    try {
      const refused = await withoutForm.api().post(`/api/v1/charges/${charge.id}/recovery-link`).send({});
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('recovery_links_unavailable');
      expect(refused.body.message).toContain('PROVIDER_CHECKOUT_URL');
      const page = await request(withoutForm.app.getHttpServer()).get(pathOf(event.data.recoveryUrl as string)).set('Accept-Language', 'en');
      expect(page.status).toBe(410);
      expect(page.text).toContain('The card form is unavailable');
    } finally {
      await withoutForm.close();
    }
    const withForm = await startTestApp({ sandbox: s.sandbox, env: { ...real, PROVIDER_CHECKOUT_URL: 'https://checkout.example.com/v1/checkout.html' } });
    try {
      const minted = await withForm.api().post(`/api/v1/charges/${charge.id}/recovery-link`).send({}).expect(200);
      const page = await request(withForm.app.getHttpServer()).get(pathOf(minted.body.url as string));
      expect(page.headers['content-security-policy']).toContain("form-action 'self' https://checkout.example.com;");
      const button = await request(withForm.app.getHttpServer()).post(pathOf(minted.body.url as string));
      expect(button.status).toBe(303);
      expect(button.headers.location).toMatch(/^https:\/\/checkout\.example\.com\/v1\/checkout\.html\?customerID=[^&]+&customerAccessToken=[^&]+$/);
    } finally {
      await withForm.close();
    }
  });
});
