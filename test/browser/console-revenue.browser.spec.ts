import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';

interface RevenueRow {
  currency: string;
  mrr: number;
  failureRate: number | null;
}

/** An owner opens the console and sees money first: this month's MRR on the dashboard, every month on the Revenue page. */
(haveChromium ? describe : describe.skip)('the operator console: revenue (headless Chromium)', () => {
  let b: ConsoleBrowser;

  async function subscribe(email: string, planId: string, outcomes: string[]) {
    const customer = (await b.api().post('/api/v1/customers').send({ email }).expect(201)).body;
    if (outcomes.length > 0) await b.t.sandboxClient.control.scriptOutcomes(customer.providerCustomerId, outcomes);
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    return (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId, timezone: 'Europe/Moscow' }).expect(201)).body as { id: string };
  }

  const firstChargeSettled = (subscriptionId: string, status: string) =>
    waitFor(
      async () => ((await b.api().get(`/api/v1/subscriptions/${subscriptionId}/charges`).expect(200)).body.items as { status: string }[])[0],
      (charge) => charge?.status === status,
      { timeoutMs: 60_000, everyMs: 200, what: `the first charge of ${subscriptionId} ${status}` },
    );

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    const plan = async (name: string, price: number) =>
      (await b.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] }).expect(201)).body as { id: string };
    const [premium, basic] = [await plan('Premium', 250000), await plan('Basic', 99000)];
    const paying = await subscribe('paying@example.com', premium.id, []);
    const short = await subscribe('short@example.com', basic.id, [INSUFFICIENT]);
    await firstChargeSettled(paying.id, 'succeeded');
    await firstChargeSettled(short.id, 'retrying');
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  /** This month's row of the report, as the API answers it. */
  async function thisMonth(): Promise<RevenueRow> {
    const { dayStart } = (await b.api().get('/api/v1/dashboard').expect(200)).body as { dayStart: string };
    const start = new Date(dayStart);
    const from = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)).toISOString();
    const to = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)).toISOString();
    const report = (await b.api().get('/api/v1/reports/revenue').query({ from, to, interval: 'month' }).expect(200)).body as { items: RevenueRow[] };
    return report.items[0];
  }

  it("leads the dashboard with this month's MRR: both subscriptions, the paid one and the one in dunning", async () => {
    const row = await thisMonth();
    // 2,500.00 paid and 990.00 past due: MRR counts both.
    expect(row).toMatchObject({ currency: 'RUB', mrr: 349000 });
    await b.open('/');
    const revenue = b.page.getByRole('region', { name: /Revenue this month/ });
    await revenue.getByText('RUB 3,490.00').first().waitFor();
    // Nothing was billed before this month.
    await revenue.getByText('Up RUB 3,490.00 since the month began').waitFor();
    await revenue.getByText(`Renewals declined: ${((row.failureRate as number) * 100).toFixed(1)} %`).waitFor();
    await b.screenshot('dashboard');
  });

  it('shows MRR and its movements over the last 12 months as a chart and as a table with the same figures', async () => {
    await b.section('Revenue');
    const table = b.page.getByRole('table', { name: 'Revenue in RUB by month, oldest first' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(12);
    const last = rows.last();
    await last.getByText('RUB 3,490.00').first().waitFor();
    // Two charts: MRR, and its movements (with a legend).
    expect(await b.page.locator('.recharts-wrapper').count()).toBe(2);
    await b.page.locator('.recharts-legend-wrapper').getByText('Churned').waitFor();
    await b.screenshot('revenue');

    await b.page.getByRole('combobox', { name: 'Intervals' }).click();
    await b.page.getByRole('option', { name: 'Daily, the last 30 days' }).click();
    await b.page.getByRole('table', { name: 'Revenue in RUB by day, oldest first' }).waitFor();
    expect(new URL(b.page.url()).searchParams.get('interval')).toBe('day');
    await b.checkAccessibility('revenue by day');
  });
});
