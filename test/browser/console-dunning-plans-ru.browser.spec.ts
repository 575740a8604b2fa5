import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { ConsoleBrowser, haveChromium } from './support/console-browser';
import { operatorStories } from './support/dunning-plan-stories';
import { EXPECTED_CLICKS, OPERATOR_ZONE, OperatorTasks, TEST_TAX_RATES } from './support/dunning-plan-tasks';

/**
 * The same four tasks as console-dunning-plans.browser.spec.ts in a browser that speaks Russian, at both widths: the
 * same results stored, days and times as Russian writes them, no word of the English catalog on any screen or dialog,
 * 0 serious or critical axe violations.
 */
(haveChromium ? describe : describe.skip)('the operator console: dunning, plans, coupons and API keys in Russian (headless Chromium, ru-RU)', () => {
  let b: ConsoleBrowser;
  let tasks: OperatorTasks;

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ env: { BILLING_TAX_RATES: TEST_TAX_RATES.join(',') }, timezoneId: OPERATOR_ZONE, locale: 'ru-RU', screenshots: 'ru' });
    tasks = new OperatorTasks(b, 'ru');
    await b.open('/');
    await b.page.getByLabel(tasks.w('signIn.token')).fill(TEST_ADMIN_TOKEN);
    await b.page.getByRole('button', { name: tasks.w('signIn.submit') }).click();
    await b.heading(tasks.w('dashboard.title'));
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('does the four tasks at a desktop width', () => operatorStories(tasks, 'desktop'));
  it('does the four tasks at 390 px', () => operatorStories(tasks, 'phone'));

  it('took as many clicks as in English', () => expect(tasks.clicks).toEqual(EXPECTED_CLICKS));
});
