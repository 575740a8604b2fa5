import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { waitFor } from '../../support/wait';
import type { ConsoleBrowser } from './console-browser';
import { englishOn } from './english-leaks';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

/** The rates the daemon under test allows, in an order whose first is not the usual default's first (0%). */
export const TEST_TAX_RATES = ['22%', '10%', '22/122', '10/110'];
/** The operator's zone: UTC+10 all year, so a day typed into a form ends at 13:59 UTC. */
export const OPERATOR_ZONE = 'Asia/Vladivostok';

/** Clicks per task, from the section it is in, typing not counted (docs/console.md has these counts). */
export const EXPECTED_CLICKS = Object.fromEntries(
  (['desktop', 'phone'] as const).flatMap((size) => [
    [`change a plan's dunning (${size})`, 3],
    [`create a plan with smart dunning and a 10% line (${size})`, 5],
    [`create a coupon for one plan with a redeem-by day (${size})`, 5],
    [`create an API key with an expiry (${size})`, 5],
  ]),
);

type Tree = { [key: string]: string | Tree };
export type Language = 'en' | 'ru';

/**
 * The console's own words for a catalog key, placeholders filled: the tests find what a person sees by the text the
 * catalog gives it, in either language, so one story runs in both.
 */
export function wordsOf(language: Language): (key: string, values?: Record<string, string | number>) => string {
  const catalog = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'console', 'src', 'i18n', `${language}.json`), 'utf8')) as Tree;
  return (key, values = {}) => {
    let node: string | Tree = catalog;
    for (const part of key.split('.')) node = (node as Tree)[part];
    if (typeof node !== 'string') throw new Error(`no text ${key} in ${language}.json`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
  };
}

/** A day this many days from now (real time, which the browser's forms check against), as a date input takes it. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** "2027-03-31 23:59" or "31.03.2027 23:59": how the console writes a time in each language. */
export function written(day: string, time: string, language: Language): string {
  const [y, m, d] = day.split('-');
  return language === 'en' ? `${day} ${time}` : `${d}.${m}.${y} ${time}`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
export const exactly = (text: string) => new RegExp(`^${escape(text)}$`);
export const containing = (text: string) => new RegExp(escape(text));

/**
 * One operator's session over the four tasks: counts the clicks of the task under way, and checks every screen and
 * dialog it is asked to (axe's serious and critical violations, recorded by the ConsoleBrowser; in Russian, no word of
 * the English catalog).
 */
export class OperatorTasks {
  readonly clicks: Record<string, number> = {};
  counting = '';
  readonly w: ReturnType<typeof wordsOf>;

  constructor(
    readonly b: ConsoleBrowser,
    readonly language: Language,
  ) {
    this.w = wordsOf(language);
  }

  async click(target: Locator): Promise<void> {
    await target.click();
    this.clicks[this.counting] = (this.clicks[this.counting] ?? 0) + 1;
  }

  /** Axe on the screen (or the open dialog, once settled), and in Russian no English left; a screenshot when named. */
  async check(screen: string, options: { dialog?: boolean; screenshot?: string } = {}): Promise<void> {
    if (options.dialog) await this.b.dialogSettled();
    if (this.language === 'ru') expect({ screen, english: await englishOn(this.b.page) }).toEqual({ screen, english: [] });
    if (options.screenshot) await this.b.screenshot(options.screenshot);
    else await this.b.checkAccessibility(screen);
  }

  /** Nothing on the page wider than the phone: lists scroll in their own box. */
  async fitsThePhone(): Promise<void> {
    const width = (await this.b.page.evaluate('document.documentElement.scrollWidth')) as number;
    // Named when it fails: the innermost elements that reach past the screen's right edge.
    const wider = width <= PHONE.width ? [] : await this.b.page.locator('body').evaluate((body, edge) => [...body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > edge && e.children.length === 0).slice(0, 5).map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').slice(0, 40)}"`), PHONE.width);
    expect({ width, wider }).toEqual({ width: expect.any(Number) as number, wider: [] });
    expect(width).toBeLessThanOrEqual(PHONE.width);
  }

  /** A section through the navigation, as a person reaches it (on a phone, the menu button first). Not counted. */
  async section(navKey: string, headingKey: string, phone: boolean): Promise<void> {
    const page = this.b.page;
    if (phone) await page.getByRole('button', { name: this.w('shell.openMenu') }).click();
    const nav = page.getByRole('navigation', { name: this.w('shell.sections') });
    await nav.getByRole('link', { name: this.w(navKey), exact: true }).click();
    await this.b.heading(this.w(headingKey));
  }

  /** The dialog's confirm button is enabled (it stays disabled while the form cannot be sent). */
  async enabled(button: Locator): Promise<void> {
    await waitFor(() => button.isDisabled(), (disabled) => !disabled, { timeoutMs: 10_000, everyMs: 50, what: 'the confirm button enabled' });
  }
}
