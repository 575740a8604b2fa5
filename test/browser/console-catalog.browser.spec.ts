import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

(haveChromium ? describe : describe.skip)('the operator console: plans and customers (headless Chromium)', () => {
  let b: ConsoleBrowser;

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('creates a plan with two lines, a trial and its own dunning ladder, lists it and archives it', async () => {
    await b.section('Plans');
    await b.page.getByRole('link', { name: 'New plan' }).click();
    await b.heading('New plan');
    const page = b.page;
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Team');
    await page.getByRole('textbox', { name: 'Product on the invoice' }).fill('Team subscription');
    await page.getByLabel('Trial days').fill('14');
    await page.getByRole('textbox', { name: 'Line 1 product' }).fill('Seats');
    await page.getByRole('textbox', { name: 'Line 1 price' }).fill('150000');
    await page.getByLabel('Line 1 quantity').fill('3');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await page.getByRole('textbox', { name: 'Line 2 product' }).fill('Support');
    await page.getByRole('textbox', { name: 'Line 2 price' }).fill('9900');
    // Money in minor units, formatted once: 3 × 1,500.00 + 99.00.
    await page.getByText('Each period: RUB 4,599.00').waitFor();
    await page.getByLabel(/Its own dunning/).check();
    await page.getByRole('radio', { name: 'Fixed' }).check();
    await page.getByLabel('Retry delays').fill('1d, 2d');
    await b.checkAccessibility('new plan');
    await page.getByRole('button', { name: 'Create plan' }).dblclick();
    await b.heading(/Plan Team/);
    const planId = page.url().split('/').pop() as string;

    const plans = (await b.api().get('/api/v1/plans').expect(200)).body.items as { id: string; amount: number; trialDays: number; dunning: unknown; lines: unknown[] }[];
    // The double click made one plan, as asked.
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ id: planId, amount: 459900, trialDays: 14, dunning: { retryDelays: ['1d', '2d'], finalAction: 'cancel' } });
    expect(plans[0].lines).toHaveLength(2);
    await page.getByText('retry after 1d, 2d, then cancel').waitFor();

    await b.section('Plans');
    const row = page.getByRole('row', { name: /Team/ });
    await row.getByText('RUB 4,599.00').waitFor();
    await b.screenshot('plans');
    await row.getByRole('link').first().click();
    const effect = await b.confirm('Archive');
    expect(effect).toContain('Subscriptions already on it go on');
    await b.done('The plan is now archived');
    expect((await b.api().get(`/api/v1/plans/${planId}`).expect(200)).body.status).toBe('archived');
    await page.getByRole('button', { name: 'Archive' }).isDisabled();
  });

  it('finds a customer, shows its card, bindings, subscriptions and charges, and issues a new access token', async () => {
    const plan = (await b.api().post('/api/v1/plans').send({ name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] }).expect(201)).body;
    const jane = (await b.api().post('/api/v1/customers').send({ email: 'jane.roe@example.com' }).expect(201)).body;
    await b.api().post('/api/v1/customers').send({ email: 'john.doe@example.com' }).expect(201);
    await b.api().post(`/api/v1/customers/${jane.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    const subscription = (await b.api().post('/api/v1/subscriptions').send({ customerId: jane.id, planId: plan.id }).expect(201)).body;
    // The scheduler follows the binding and bills the first period by itself.
    await waitFor(
      async () => (await b.api().get('/api/v1/charges').query({ customerId: jane.id }).expect(200)).body.items as { status: string }[],
      (items) => items[0]?.status === 'succeeded',
      { timeoutMs: 30_000, everyMs: 200, what: "the first period of Jane's subscription paid" },
    );

    await b.section('Customers');
    await b.page.getByRole('row', { name: /john\.doe/ }).waitFor();
    await b.page.getByLabel('Search').fill('ROE@');
    await b.page.getByRole('button', { name: 'Search' }).click();
    await b.page.getByRole('row', { name: /john\.doe/ }).waitFor({ state: 'detached' });
    const row = b.page.getByRole('row', { name: /jane\.roe@example\.com/ });
    await row.getByText('•••• 4242').waitFor();
    // The search is in the address: a link to these results.
    expect(new URL(b.page.url()).searchParams.get('q')).toBe('ROE@');
    await b.screenshot('customers');
    await row.getByRole('link').first().click();
    await b.heading('Customer jane.roe@example.com');
    const page = b.page;
    await page.getByText(/Card 424242•+ 4242|424242•••••• 4242/).waitFor();
    await page.getByRole('table', { name: 'Card bindings, newest first' }).getByText('succeeded').waitFor();
    await page.getByRole('table', { name: 'Subscriptions, newest first' }).getByRole('link', { name: subscription.id.slice(0, 8) }).waitFor();
    await page.getByRole('table', { name: 'Charges, newest first' }).getByText('RUB 990.00').waitFor();
    await page.getByRole('link', { name: /Hosted binding form/ }).waitFor();
    await b.screenshot('customer');

    await page.getByRole('button', { name: 'New access token' }).click();
    const token = await page.getByTestId('access-token').innerText();
    expect(token.length).toBeGreaterThan(20);
    const link = await page.getByRole('link', { name: 'Open the hosted form with this token' }).getAttribute('href');
    expect(link).toContain(`customerAccessToken=${encodeURIComponent(token)}`);
  });
});
