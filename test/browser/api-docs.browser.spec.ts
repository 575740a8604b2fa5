import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase } from '../support/test-database';

/** Debian's chromium; CI installs it (.ci/run). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`Skipping the /docs browser test: no chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

/** The API description in a browser: "Try it out" on a list sends no filter the user did not type, so it lists everything. */
(haveChromium ? describe : describe.skip)('/docs in a real browser (headless Chromium)', () => {
  let t: TestApp;
  let profileDir: string;
  let browser: BrowserContext;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ listen: true });
    profileDir = mkdtempSync(join(tmpdir(), 'billing-docs-chromium-'));
    browser = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it('lists every plan from "Try it out" on GET /api/v1/plans, with no filter filled in', async () => {
    const names = ['Basic', 'Pro'];
    for (const name of names) {
      await t.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: 'Seat', price: 100 }] }).expect(201);
    }
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url as string) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    // The page's own policy (no frames, no foreign script) must not stop any part of it working.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${t.url}/docs`, { timeout: 120_000 });

    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input').first().fill(TEST_ADMIN_TOKEN);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/api\/v1\/plans$/ }) });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const filters = await operation.locator('.parameters input[type=text]').evaluateAll((inputs) =>
      inputs.map((input) => ({ name: input.getAttribute('placeholder'), value: (input as unknown as { value: string }).value })),
    );
    expect(filters.map((f) => f.name)).toEqual(expect.arrayContaining(['cursor', 'createdAfter', 'createdBefore']));
    // Only the limit may come filled in, with its default (as if left out).
    expect(filters.filter((f) => f.value !== '')).toEqual(filters.filter((f) => f.value !== '' && f.name === 'limit' && f.value === '50'));

    await operation.getByRole('button', { name: 'Execute' }).click();
    const answer = operation.locator('.live-responses-table .response-col_description pre');
    await answer.first().waitFor();
    const body = JSON.parse((await answer.first().innerText()).trim()) as { items: { name: string }[] };
    expect(body.items.map((p) => p.name).sort()).toEqual(names);
    expect(elsewhere).toEqual([]);
    expect(refused).toEqual([]);
  });
});
