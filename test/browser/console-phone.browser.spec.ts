import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

/** A phone's width (an iPhone 14's CSS pixels). */
const PHONE = { width: 390, height: 844 };

/** The console at a phone's width: the sections fold behind a menu button, nothing makes the page scroll sideways. */
(haveChromium ? describe : describe.skip)('the operator console on a phone (headless Chromium, 390 px)', () => {
  let b: ConsoleBrowser;

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    for (let i = 0; i < 3; i++) await b.api().post('/api/v1/customers').send({ email: `a-rather-long-address-${i}@customers.example.com` }).expect(201);
    await b.page.setViewportSize(PHONE);
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  const pageWidth = () => b.page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
  const sections = () => b.page.getByRole('navigation', { name: 'Sections' });
  /** Whether any of the sections panel is on screen. */
  const sectionsOnScreen = async () => {
    const box = await sections().boundingBox();
    return box !== null && box.x + box.width > 0 && box.x < PHONE.width;
  };

  it('folds the sections behind a menu button and keeps every page within the screen', async () => {
    await b.signIn();
    expect(await sectionsOnScreen()).toBe(false);
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await b.checkAccessibility('phone: dashboard');

    await b.page.getByRole('button', { name: 'Open the sections menu' }).click();
    // Polled from here: the page's policy forbids evaluating strings in it (no unsafe-eval).
    await waitFor(sectionsOnScreen, (shown) => shown, { timeoutMs: 10_000, everyMs: 50, what: 'the sections menu open' });
    await b.checkAccessibility('phone: sections menu');
    await sections().getByRole('link', { name: 'Customers', exact: true }).click();
    await b.heading('Customers');
    // Choosing a section folds the menu again, so the page is what shows.
    await waitFor(sectionsOnScreen, (shown) => !shown, { timeoutMs: 10_000, everyMs: 50, what: 'the sections menu folded' });
    await b.page.getByText('a-rather-long-address-2@customers.example.com').first().waitFor();
    // The list scrolls inside its own box; the page does not.
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await b.screenshot('phone-customers');
  });

  it('offers a skip link as the first stop of the keyboard, which moves focus to the page content', async () => {
    await b.open('/customers');
    await b.heading('Customers');
    await b.page.keyboard.press('Tab');
    const skip = b.page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((link) => link === link.ownerDocument.activeElement)).toBe(true);
    await b.page.keyboard.press('Enter');
    const content = b.page.locator('#content');
    await waitFor(() => content.evaluate((main) => main === main.ownerDocument.activeElement), (focused) => focused, { timeoutMs: 10_000, everyMs: 50, what: 'focus on the content' });
  });
});
