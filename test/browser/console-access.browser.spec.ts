import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_ASSETS_DIR } from '../../src/console/console-assets';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

/** The most JavaScript the first screen may load, gzipped. */
const FIRST_SCREEN_BUDGET = 300 * 1024;

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** Gzipped bytes of a manifest entry and every chunk it imports statically (what the browser loads before it runs). */
function gzippedJs(manifest: Record<string, ManifestChunk>, keys: string[]): number {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipSync(readFileSync(join(CONSOLE_ASSETS_DIR, f)), { level: 9 }).length, 0);
}

(haveChromium ? describe : describe.skip)('the operator console: signing in, the first screen, the test clock (headless Chromium)', () => {
  let b: ConsoleBrowser;

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
  });
  afterAll(() => b?.close());
  // Whatever a test did: no console error, no request to another origin, no serious accessibility violation.
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('loads at most 300 KB of gzipped JavaScript for its first screen (sign-in, then the dashboard)', () => {
    const manifest = JSON.parse(readFileSync(join(CONSOLE_ASSETS_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
    expect(entry).toEqual(['index.html']);
    const signIn = gzippedJs(manifest, entry);
    const dashboard = gzippedJs(manifest, [...entry, 'src/pages/dashboard.tsx']);
    console.log(`console first screen: ${(signIn / 1024).toFixed(1)} KB gzipped JS to sign in, ${(dashboard / 1024).toFixed(1)} KB with the dashboard`);
    expect(dashboard).toBeGreaterThan(signIn);
    expect(dashboard).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
  });

  it('signs in with the admin token into a session cookie no script can read, and signs out', async () => {
    await b.open('/');
    await b.page.getByLabel('Admin token').waitFor();
    await b.screenshot('sign-in');
    await b.signIn();
    // HttpOnly: the page's own scripts never see the session.
    expect(await b.page.evaluate('document.cookie')).toBe('');
    const [cookie] = await b.context.cookies();
    expect(cookie).toMatchObject({ name: 'console_session', httpOnly: true, sameSite: 'Strict', path: '/' });
    await b.page.getByRole('button', { name: 'Sign out' }).click();
    await b.page.getByLabel('Admin token').waitFor();
    expect(await b.context.cookies()).toEqual([]);
    // The old session is over on the server too.
    const state = await b.page.evaluate(async () => (await fetch('/console/session')).json());
    expect(state).toEqual({ signedIn: false, expiresAt: null, testClock: null, scopes: null, taxRates: null });
  });

  it('opens any deep link directly once signed in, and names an unknown page', async () => {
    await b.signIn();
    await b.open('/plans/new');
    await b.heading('New plan');
    await b.page.reload();
    await b.heading('New plan');
    await b.open('/no/such/page');
    await b.heading('No such page');
  });

  it('shows the dashboard and the test clock, and advances the clock from its banner', async () => {
    await b.signIn();
    const banner = b.page.getByRole('region', { name: 'Test clock' });
    const clock = (await b.api().get('/api/v1/test-clock').expect(200)).body.now as string;
    await banner.getByText(`Billing time: ${clock.slice(0, 10)} ${clock.slice(11, 16)} UTC`).waitFor();
    await b.screenshot('dashboard');
    await banner.getByRole('button', { name: 'Advance 1d' }).dblclick();
    const expected = new Date(Date.parse(clock) + 86_400_000).toISOString();
    await banner.getByText(`Billing time: ${expected.slice(0, 10)} ${expected.slice(11, 16)} UTC`).waitFor();
    // A double click moved the clock once: the second click sent nothing, or the same Idempotency-Key.
    expect((await b.api().get('/api/v1/test-clock').expect(200)).body.now).toBe(expected);
  });

  it('signs in with an API key and shows only the sections its scopes allow, without the test clock', async () => {
    const key = (await b.api().post('/api/v1/api-keys').send({ name: 'support desk', scopes: ['customers:read'] }).expect(201)).body.key as string;
    await b.context.clearCookies();
    await b.open('/');
    await b.page.getByLabel('Admin token or API key').fill(key);
    await b.page.getByRole('button', { name: 'Sign in' }).click();
    // No dashboard (reports:read): the console opens the one section it may read.
    await b.heading('Customers');
    const links = await b.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Customers']);
    expect(await b.page.getByRole('region', { name: 'Test clock' }).count()).toBe(0);
    await b.page.getByRole('button', { name: 'Sign out' }).click();
    await b.page.getByLabel('Admin token or API key').waitFor();
  });

  it('shows a key that may only read no action that writes: no new plan, no archive; the same screens with write show them', async () => {
    const plan = (await b.api().post('/api/v1/plans').send({ name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] }).expect(201)).body as { id: string };
    const signInWith = async (scopes: string[]) => {
      const key = (await b.api().post('/api/v1/api-keys').send({ name: `plans ${scopes.join(' ')}`, scopes }).expect(201)).body.key as string;
      await b.context.clearCookies();
      await b.open('/');
      await b.page.getByLabel('Admin token or API key').fill(key);
      await b.page.getByRole('button', { name: 'Sign in' }).click();
      await b.heading('Plans');
    };
    const actions = async () => {
      await b.page.getByRole('table', { name: 'Plans, newest first' }).getByRole('link', { name: plan.id.slice(0, 8) }).waitFor();
      const onList = await b.page.getByRole('link', { name: 'New plan' }).count();
      await b.open(`/plans/${plan.id}`);
      await b.heading(/Basic/);
      return { newPlan: onList, archive: await b.page.getByRole('button', { name: 'Archive' }).count() };
    };

    await signInWith(['plans:read']);
    expect(await actions()).toEqual({ newPlan: 0, archive: 0 });
    await b.checkAccessibility('plan, read only');
    await signInWith(['plans:write']);
    expect(await actions()).toEqual({ newPlan: 1, archive: 1 });
    await b.page.getByRole('button', { name: 'Sign out' }).click();
    await b.page.getByLabel('Admin token or API key').waitFor();
  });
});
