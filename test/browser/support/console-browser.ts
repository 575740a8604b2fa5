import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import type { PayoutTuning } from '../../../src/payouts/payout-tuning';
import { ensureConsoleBuilt } from '../../support/console-build';
import { startTestApp, TestApp } from '../../support/test-app';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import { resetDatabase } from '../../support/test-database';
import { waitFor } from '../../support/wait';

/** Debian's chromium; CI installs it (.ci/run). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`Skipping the console browser tests: no chromium binary at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

/** Where the tests write the screenshots docs/console.md shows. */
const SCREENSHOTS = join(__dirname, '..', '..', '..', 'docs', 'images', 'console');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * One daemon (scheduler on, test clock on, the sandbox), one headless Chromium, and a record of what no console page
 * may do: log an error, throw, or send a request anywhere but the daemon's own origin.
 */
export class ConsoleBrowser {
  /** Console errors, page errors and CSP refusals seen so far. */
  readonly problems: string[] = [];
  /** Requests a console page sent to any other origin. */
  readonly foreignRequests: string[] = [];
  /** Serious or critical accessibility violations, by screen. */
  readonly accessibility: Record<string, string[]> = {};
  page!: Page;

  private constructor(
    readonly t: TestApp,
    readonly origin: string,
    private readonly browser: Browser,
    readonly context: BrowserContext,
    private readonly screenshots: string,
  ) {}

  /**
   * `locale` is the browser's language (navigator.languages), which picks the console's: English unless a test asks for
   * Russian. `screenshots` is the folder under docs/images/console a test's screenshots go to (docs/console.md shows them).
   * `timezoneId` is the operator's zone (the browser's), in which the console reads a day typed into a form.
   */
  static async start(options: { env?: Record<string, string>; payoutTuning?: Partial<PayoutTuning>; locale?: string; screenshots?: string; timezoneId?: string } = {}): Promise<ConsoleBrowser> {
    ensureConsoleBuilt();
    await resetDatabase();
    const t = await startTestApp({
      listen: true,
      env: { TEST_CLOCK: 'true', SCHEDULER_ENABLED: 'true', BILLING_INTERVAL_MS: '300', ...options.env },
      payoutTuning: options.payoutTuning,
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: t.url, locale: options.locale ?? 'en-US', timezoneId: options.timezoneId });
    const b = new ConsoleBrowser(t, t.url as string, browser, context, options.screenshots ? join(SCREENSHOTS, options.screenshots) : SCREENSHOTS);
    context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(`${b.origin}/`) && !url.startsWith('data:')) b.foreignRequests.push(url);
    });
    b.page = await b.newPage();
    return b;
  }

  async newPage(): Promise<Page> {
    const page = await this.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') this.problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
    return page;
  }

  /** The admin API itself, for setting a story up (the console is what the tests drive). */
  api() {
    return this.t.api();
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.t?.close();
  }

  async open(path: string): Promise<void> {
    const response = await this.page.goto(`/console${path}`);
    expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
  }

  /**
   * What went wrong since the last call, and forgets it: console errors, requests to other origins and serious
   * accessibility violations by screen. Every test ends by expecting all three empty.
   */
  takeRecords(): { problems: string[]; foreignRequests: string[]; accessibility: [string, string[]][] } {
    const records = {
      problems: this.problems.splice(0),
      foreignRequests: this.foreignRequests.splice(0),
      accessibility: Object.entries(this.accessibility).filter(([, v]) => v.length > 0),
    };
    for (const screen of Object.keys(this.accessibility)) delete this.accessibility[screen];
    return records;
  }

  /** Signs in through the sign-in page, as an operator does (from a browser without a session). */
  async signIn(): Promise<void> {
    await this.context.clearCookies();
    await this.open('/');
    await this.page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.heading('Dashboard');
  }

  async heading(name: string | RegExp): Promise<void> {
    await this.page.getByRole('heading', { level: 1, name }).waitFor();
  }

  /** Follows the navigation, as a person clicks through, and waits for the section's heading. */
  async section(name: string): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
    await this.heading(name);
  }

  /** Clicks a button, then its confirmation in the dialog that says what it will do; answers that dialog's text. */
  async confirm(button: string, confirmLabel = button): Promise<string> {
    await this.page.getByRole('button', { name: button, exact: true }).click();
    const dialog = this.page.getByRole('dialog');
    await dialog.waitFor();
    const effect = await dialog.innerText();
    await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    return effect;
  }

  /** Waits for a "Done" notice of an action and answers its text. */
  async done(text: string | RegExp): Promise<void> {
    await this.page.getByRole('status').filter({ hasText: text }).first().waitFor();
  }

  /** Runs axe on the screen as it is and records its serious and critical violations. */
  /** Axe on the open dialog once its opening transition is over (mid-fade, its colours read paler than they are). */
  async checkDialogAccessibility(screen: string): Promise<void> {
    await this.dialogSettled();
    await this.checkAccessibility(screen);
  }

  /** Resolves once the open dialog's opening transition is over. */
  async dialogSettled(): Promise<void> {
    await waitFor(() => this.page.evaluate(DIALOG_SETTLED) as Promise<boolean>, (settled) => settled, { timeoutMs: 10_000, everyMs: 50, what: 'the dialog settled' });
  }

  async checkAccessibility(screen: string): Promise<void> {
    await this.page.evaluate(AXE_SOURCE);
    // Run in the page (its DOM, not Node's): every violation with its impact and where.
    const violations = (await this.page.evaluate(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
    )) as { id: string; impact: string; targets: string[] }[];
    this.accessibility[screen] = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
  }

  /** The screen as docs/console.md shows it; also checked for accessibility. */
  async screenshot(name: string): Promise<void> {
    await this.checkAccessibility(name);
    mkdirSync(this.screenshots, { recursive: true });
    await this.page.screenshot({ path: join(this.screenshots, `${name}.png`), fullPage: false });
  }
}

/** Whether the open dialog is fully shown: it and every element around it opaque, no animation running. */
const DIALOG_SETTLED = `(() => {
  const dialog = document.querySelector('[role=dialog]');
  if (!dialog) return false;
  for (let e = dialog; e; e = e.parentElement) if (getComputedStyle(e).opacity !== '1') return false;
  return document.getAnimations().every((a) => a.playState !== 'running');
})()`;
