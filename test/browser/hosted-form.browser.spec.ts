import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

/** Debian's chromium; CI installs it (.ci/run). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  // Skipped only for want of a browser: a browser that exists but fails is a failure.
  console.warn(`Skipping the hosted form browser tests: no chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

interface CustomerBody {
  id: string;
  status: string;
  hostedFormUrl: string;
  card: { lastDigits: string } | null;
}

(haveChromium ? describe : describe.skip)('the hosted form in a real browser (headless Chromium)', () => {
  let testApp: TestApp;
  let profileDir: string;
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    await resetDatabase();
    // The scheduler runs: the customer turns ready through the daemon's own follower, as in production.
    testApp = await startTestApp({ env: { SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '60000' } });
    profileDir = mkdtempSync(join(tmpdir(), 'billing-chromium-'));
    browser = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  async function createCustomer(): Promise<CustomerBody> {
    const response = await testApp.api().post('/api/v1/customers').send({ email: 'browser@example.com' }).expect(201);
    return response.body as CustomerBody;
  }

  async function readyCustomer(id: string): Promise<CustomerBody> {
    return waitFor(
      async () => (await testApp.api().get(`/api/v1/customers/${id}`).expect(200)).body as CustomerBody,
      (body) => body.status === 'ready',
      { timeoutMs: 60_000, everyMs: 200, what: `customer ${id} ready` },
    );
  }

  /** A page that records what the browser itself refused (CSP violations, script errors). */
  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
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

  it('binds a card typed into the form, and the customer becomes ready in the admin API', async () => {
    const customer = await createCustomer();
    const page = await openPage(customer.hostedFormUrl);
    expect(await page.title()).toBe('Bind a card');
    await fillCard(page, '4242 4242 4242 4242');
    await page.waitForSelector('text=The card ending 4242 is bound');

    const ready = await readyCustomer(customer.id);
    expect(ready.card).toMatchObject({ lastDigits: '4242' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('takes the payer through the 3-D Secure page when the card asks for it', async () => {
    const customer = await createCustomer();
    const page = await openPage(customer.hostedFormUrl);
    await fillCard(page, CARDS.threeDsSuccess);
    // The form sends the payer on to the issuer's check; nothing is bound before they confirm.
    await page.waitForSelector('text=3-D Secure check');
    expect(new URL(page.url()).pathname).toBe('/sandbox/acs');
    expect((await testApp.api().get(`/api/v1/customers/${customer.id}`).expect(200)).body.status).toBe('unready');
    await page.click('button:has-text("Confirm")');
    await page.waitForSelector('text=The card ending 1881 is bound');

    const ready = await readyCustomer(customer.id);
    expect(ready.card).toMatchObject({ lastDigits: '1881' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
