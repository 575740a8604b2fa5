import { ConsoleBrowser, haveChromium } from './support/console-browser';
import { operatorStories } from './support/dunning-plan-stories';
import { EXPECTED_CLICKS, OPERATOR_ZONE, OperatorTasks, TEST_TAX_RATES } from './support/dunning-plan-tasks';

/**
 * The Dunning screen and the plan, coupon and API key forms, in English, at a desktop's width and a phone's: change a
 * plan's dunning (a wrong delay refused on its field first), create a plan with smart dunning and a 10 % line, a coupon
 * for one plan with a redeem-by day, an API key with an expiry day; each checked against what the API stored, every
 * screen and dialog with axe. The daemon allows other VAT rates than the default list, in another order, and the
 * browser is in UTC+10, so the console's rates and days must come from the API and the operator's zone.
 */
(haveChromium ? describe : describe.skip)('the operator console: dunning, plans, coupons and API keys (headless Chromium, en)', () => {
  let b: ConsoleBrowser;
  let tasks: OperatorTasks;

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ env: { BILLING_TAX_RATES: TEST_TAX_RATES.join(',') }, timezoneId: OPERATOR_ZONE });
    tasks = new OperatorTasks(b, 'en');
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('does the four tasks at a desktop width', () => operatorStories(tasks, 'desktop'));
  it('does the four tasks at 390 px', () => operatorStories(tasks, 'phone'));

  it('took these clicks per task (from the section it is in; typing not counted)', () => {
    console.log(Object.entries(tasks.clicks).map(([task, n]) => `${task} — ${n}`).join('\n'));
    expect(tasks.clicks).toEqual(EXPECTED_CLICKS);
  });
});

