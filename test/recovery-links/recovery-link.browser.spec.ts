import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { CustomerSyncService } from '../../src/customers/customer-sync.service';
import { startTestApp, TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { ActionRequired, ChargeView, EXPIRED, NOON_IN_MOSCOW, pathOf } from './recovery-story';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`Skipping the recovery link browser tests: no chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

/**
 * The whole path a customer takes, in headless Chromium against the sandbox: a hard decline, the link from
 * charge.action_required, its page, the button, the provider's card form, a new card, and the charge paid once.
 */
(haveChromium ? describe : describe.skip)('recovery links in a real browser (headless Chromium)', () => {
  let t: TestApp;
  let profileDir: string;
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    await resetDatabase();
    // The provider's webhooks reach the daemon (as with PUBLIC_URL): a card bound on the provider's form is known at once.
    t = await startTestApp({ listen: true, providerWebhooksAt: true, env: { TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '3600000', LOG_LEVEL: 'warn' }, billingTuning: { paymentPollMs: 3000 } });
    await t.api().post('/api/v1/test-clock').send({ now: NOON_IN_MOSCOW }).expect(200);
    profileDir = mkdtempSync(join(tmpdir(), 'billing-chromium-'));
    browser = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, locale: 'ru-RU' });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  const get = async <T>(path: string): Promise<T> => (await t.api().get(path).expect(200)).body as T;

  /** A subscriber whose first renewal is hard-declined: the link the merchant would send them. */
  async function declined(): Promise<{ customerId: string; subscriptionId: string; chargeId: string; url: string }> {
    const plan = (await t.api().post('/api/v1/plans').send({ name: 'Премиум', product: 'Premium', currency: 'RUB', interval: 'month', lines: [{ product: 'Premium', price: 99000 }] }).expect(201)).body;
    const customer = (await t.api().post('/api/v1/customers').send({ email: `payer-${Math.random().toString(36).slice(2)}@example.com` }).expect(201)).body;
    await t.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    await waitFor(
      async () => {
        await t.app.get(CustomerSyncService).syncDue();
        return (await get<{ status: string }>(`/api/v1/customers/${customer.id}`)).status;
      },
      (status) => status === 'ready',
      { timeoutMs: 60_000, what: 'the customer ready' },
    );
    await t.sandboxClient.control.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    const sub = (await t.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' }).expect(201)).body;
    await t.api().post('/api/v1/billing/run').send({}).expect(200);
    const [charge] = (await get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
    expect(charge).toMatchObject({ status: 'failed', waitingForNewCard: true });
    const events = (await get<{ items: ActionRequired[] }>('/api/v1/events?type=charge.action_required')).items.filter((e) => e.data.object.id === charge.id);
    expect(events).toHaveLength(1);
    // The event's link names PUBLIC_URL or the daemon's configured port; the test's daemon listens elsewhere.
    return { customerId: customer.id, subscriptionId: sub.id, chargeId: charge.id, url: `${t.url as string}${pathOf(events[0].data.recoveryUrl as string)}` };
  }

  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      // The recovery page itself loads nothing: no style sheet, image, font or script, from any host.
      if (request.resourceType() !== 'document' && request.frame().url().includes('/pay/')) problems.push(`the page requested ${request.url()}`);
    });
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    return page;
  }

  async function fillCard(page: Page, cardNumber: string): Promise<void> {
    await page.fill('#cardNumber', cardNumber);
    await page.fill('#expDate', '12/30');
    await page.fill('#cvv', '123');
    await page.fill('#cardHolder', 'JANE ROE');
    await page.check('input[name="consent"]');
    await page.click('button[type="submit"]');
  }

  async function paid(chargeId: string): Promise<ChargeView> {
    return waitFor(() => get<ChargeView>(`/api/v1/charges/${chargeId}`), (c) => c.status === 'succeeded', { timeoutMs: 60_000, everyMs: 100, what: 'the charge paid with the new card' });
  }

  async function capturedFor(customerId: string): Promise<number> {
    const { providerCustomerId } = await get<{ providerCustomerId: string }>(`/api/v1/customers/${customerId}`);
    const { payments } = await t.sandboxClient.control.ledger();
    return payments.filter((p) => p.status === 'captured' && p.customerID === providerCustomerId).length;
  }

  it('takes the customer from the link to the card form and back: the charge is paid exactly once, the subscription active', async () => {
    const story = await declined();
    const page = await openPage(story.url);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await page.getByRole('heading', { name: 'Платёж не прошёл' }).waitFor();
    expect(await page.locator('dl').innerText()).toMatch(/990,00\s₽[\s\S]*Премиум[\s\S]*•••• 4242/);

    // Readable on a phone, and accessible: axe finds nothing serious or critical.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.evaluate(AXE_SOURCE);
    const violations = (await page.evaluate(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' (' + v.impact + ')'))`,
    )) as string[];
    expect(violations).toEqual([]);

    await page.getByRole('button', { name: /Привязать новую карту/ }).click();
    await page.waitForURL(/\/sandbox\/hosted-form\?/);
    await fillCard(page, CARDS.secondSuccess);
    await page.waitForSelector('text=The card ending 4444 is bound');

    const charge = await paid(story.chargeId);
    expect(charge.attempts.map((a) => a.status)).toEqual(['declined', 'succeeded']);
    // Paid by the card the customer bound through the link: the recovery is the card update's.
    expect(charge.recoveredBy).toBe('card_update');
    expect((await get<{ status: string }>(`/api/v1/subscriptions/${story.subscriptionId}`)).status).toBe('active');
    expect(await capturedFor(story.customerId)).toBe(1);
    expect(problems).toEqual([]);
    // The link now says the charge is paid (the browser notes the 410 in its console: expected here).
    const again = await page.goto(story.url);
    expect(again?.status()).toBe(410);
    await page.getByRole('heading', { name: 'Уже оплачено' }).waitFor();
    problems.length = 0;
    await page.close();
  });

  it('binds through two tabs of one link at once: one active card, one payment', async () => {
    const story = await declined();
    const [first, second] = [await openPage(story.url), await openPage(story.url)];
    await Promise.all([first, second].map((page) => page.getByRole('button', { name: /Привязать новую карту/ }).click()));
    await Promise.all([first, second].map((page) => page.waitForURL(/\/sandbox\/hosted-form\?/)));
    await Promise.all([fillCard(first, CARDS.secondSuccess), fillCard(second, CARDS.mirSuccess)]);
    await Promise.all([first.waitForSelector('text=The card ending 4444 is bound'), second.waitForSelector('text=The card ending 0013 is bound')]);

    const charge = await paid(story.chargeId);
    // Whatever order the bindings settle in, the customer has one card, and the charge one payment.
    const customer = await waitFor(
      async () => {
        await t.app.get(CustomerSyncService).syncDue();
        return get<{ card: { lastDigits: string } | null; pendingBinding: unknown }>(`/api/v1/customers/${story.customerId}`);
      },
      (c) => c.pendingBinding === null,
      { timeoutMs: 60_000, what: 'both bindings settled' },
    );
    expect(['4444', '0013']).toContain(customer.card?.lastDigits);
    expect(charge.attempts.filter((a) => a.status === 'succeeded')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await get<ChargeView>(`/api/v1/charges/${story.chargeId}`)).attempts.filter((a) => a.status === 'succeeded')).toHaveLength(1);
    expect(await capturedFor(story.customerId)).toBe(1);
    expect(problems).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  });
});
