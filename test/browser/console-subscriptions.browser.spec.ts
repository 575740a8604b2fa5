import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface Charge {
  id: string;
  status: string;
}

(haveChromium ? describe : describe.skip)('the operator console: subscriptions and charges (headless Chromium)', () => {
  let b: ConsoleBrowser;
  let basic: { id: string };
  let premium: { id: string };
  /** Paid its first period; lives in Moscow. */
  let paying: { id: string };
  /** Its first payment was declined for insufficient funds. */
  let declined: { id: string };
  let declinedCharge: Charge;

  async function subscribe(email: string, planId: string, outcomes: string[]) {
    const customer = (await b.api().post('/api/v1/customers').send({ email }).expect(201)).body;
    if (outcomes.length > 0) await b.t.sandboxClient.control.scriptOutcomes(customer.providerCustomerId, outcomes);
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    return (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId, timezone: 'Europe/Moscow' }).expect(201)).body;
  }

  const firstCharge = (subscriptionId: string, status: string) =>
    waitFor(
      async () => ((await b.api().get(`/api/v1/subscriptions/${subscriptionId}/charges`).expect(200)).body.items as Charge[])[0],
      (charge) => charge?.status === status,
      { timeoutMs: 30_000, everyMs: 200, what: `the first charge of ${subscriptionId} ${status}` },
    );

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    const plan = (name: string, price: number, extra = {}) =>
      b.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }], ...extra }).expect(201);
    basic = (await plan('Basic', 99000, { dunning: { retryDelays: ['1d', '3d'], finalAction: 'unpaid' } })).body;
    premium = (await plan('Premium', 250000)).body;
    paying = await subscribe('paying@example.com', premium.id, []);
    declined = await subscribe('short@example.com', basic.id, [INSUFFICIENT]);
    await firstCharge(paying.id, 'succeeded');
    declinedCharge = await firstCharge(declined.id, 'retrying');
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('lists subscriptions filtered by status and by plan, each filter a link', async () => {
    await b.section('Subscriptions');
    const table = b.page.getByRole('table', { name: 'Subscriptions, newest first' });
    await table.getByRole('link', { name: paying.id.slice(0, 8) }).waitFor();
    await table.getByRole('link', { name: declined.id.slice(0, 8) }).waitFor();
    await b.page.getByRole('combobox', { name: 'Status' }).click();
    await b.page.getByRole('option', { name: 'past_due' }).click();
    await table.getByRole('link', { name: paying.id.slice(0, 8) }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: declined.id.slice(0, 8) }).waitFor();
    expect(new URL(b.page.url()).searchParams.get('status')).toBe('past_due');
    await b.open(`/subscriptions?planId=${premium.id}`);
    await table.getByRole('link', { name: paying.id.slice(0, 8) }).waitFor();
    expect(await table.getByRole('link', { name: declined.id.slice(0, 8) }).count()).toBe(0);
    await b.checkAccessibility('subscriptions');
  });

  it("shows a subscription's periods, charges and audit trail in its zone and UTC; pauses, resumes and cancels it", async () => {
    await b.open(`/subscriptions/${paying.id}`);
    const page = b.page;
    await b.heading(/Subscription/);
    await page.getByText('Europe/Moscow', { exact: true }).waitFor();
    const periods = page.getByRole('table', { name: 'Charges, newest first' });
    await periods.getByText('RUB 2,500.00').waitFor();
    await periods.getByText(/Europe\/Moscow · .* UTC/).waitFor();
    await page.getByRole('table', { name: 'Audit trail, newest first' }).getByText('period_billed').waitFor();
    await b.screenshot('subscription');

    const pause = await b.confirm('Pause');
    expect(pause).toMatch(/Nothing is charged while it is paused; the next billing \(.* Europe\/Moscow · .* UTC\)/);
    await b.done('Subscription paused: it is now paused.');
    await b.confirm('Resume');
    await b.done('Subscription resumed: it is now active.');
    const atEnd = await b.confirm('Cancel at period end');
    expect(atEnd).toMatch(/RUB\s2,500\.00 per period/);
    await b.done('it is now active, ending at the period end');
    const now = await b.confirm('Cancel now');
    expect(now).toContain('This cannot be undone');
    await b.done('Subscription canceled: it is now canceled.');
    expect(await page.getByRole('button', { name: 'Cancel now' }).isDisabled()).toBe(true);
    const audit = page.getByRole('table', { name: 'Audit trail, newest first' });
    for (const what of ['paused', 'resumed', 'canceled']) await audit.getByRole('cell', { name: what, exact: true }).first().waitFor();
    expect((await b.api().get(`/api/v1/subscriptions/${paying.id}`).expect(200)).body.status).toBe('canceled');

    // The merchant heard of it: the event, found in the console, links back here.
    await b.section('Events');
    await b.page.getByRole('combobox', { name: 'Type' }).click();
    await b.page.getByRole('option', { name: 'subscription.canceled' }).click();
    const events = b.page.getByRole('table', { name: 'Events, newest first' });
    // The link names the customer and plan; its title is the subscription's id.
    await events.getByRole('row', { name: /subscription\.canceled/ }).getByRole('link', { name: /paying@example\.com/ }).and(b.page.getByTitle(paying.id)).click();
    await b.heading(/Subscription .*canceled/);
    expect(new URL(page.url()).pathname).toBe(`/console/subscriptions/${paying.id}`);
  });

  it("shows why a charge failed (code, class, attempt n of N, next retry), retries it now and sees it paid and announced", async () => {
    await b.section('Charges');
    await b.page.getByRole('combobox', { name: 'Status' }).click();
    await b.page.getByRole('option', { name: 'retrying' }).click();
    const table = b.page.getByRole('table', { name: 'Charges, newest first' });
    await table.getByText(INSUFFICIENT).waitFor();
    await table.getByRole('link', { name: declinedCharge.id.slice(0, 8) }).click();
    const page = b.page;
    await b.heading(/Charge/);
    const attempts = page.getByRole('table', { name: 'Payment attempts, first first' });
    const first = attempts.getByRole('row', { name: /1 of 3/ });
    await first.getByText(INSUFFICIENT).waitFor();
    await first.getByText('soft').waitFor();
    await page.getByTestId('attempt-n-of-n').getByText('1 of 3 (next: attempt 2 of 3)').waitFor();
    await page.getByText('1d, 3d, then unpaid').waitFor();
    await b.screenshot('charge');

    const effect = await b.confirm('Retry now');
    expect(effect).toMatch(/A new payment of RUB\s990\.00/);
    expect(effect).toMatch(/outside the retry ladder: if it is declined, it does not count as one of the ladder's 3 attempts/);
    // On a busy machine the payment may still be at the provider (or left to its event) when the retry answers,
    // whatever status the answer shows; the page follows it, and the attempt's row below must end succeeded.
    await b.done(/Attempted: the charge is now /);
    await attempts.getByRole('row', { name: /Manual retry/ }).getByText('succeeded').waitFor();
    expect(await page.getByRole('button', { name: 'Retry now' }).isDisabled()).toBe(true);
    const payments = (await b.t.sandboxClient.control.ledger()).payments.filter((p) => p.status === 'captured' && p.amount === 99000);
    expect(payments).toHaveLength(1);

    await b.open('/events?type=charge.succeeded');
    await page.getByRole('table', { name: 'Events, newest first' }).getByRole('link', { name: /short@example\.com/ }).and(page.getByTitle(declinedCharge.id)).waitFor();
  });
});
