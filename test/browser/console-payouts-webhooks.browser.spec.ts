import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAST_PAYOUT_TUNING } from '../payouts/support/payout-test-app';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

/** A merchant's webhook receiver on loopback: answers `status` and counts what it got. */
function receiver(status: number): Promise<{ server: Server; url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(status).end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received })));
}

function futureExpDate(): string {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

(haveChromium ? describe : describe.skip)('the operator console: payouts, events and webhook endpoints (headless Chromium)', () => {
  let b: ConsoleBrowser;
  let good: Awaited<ReturnType<typeof receiver>>;
  let broken: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ payoutTuning: FAST_PAYOUT_TUNING });
    [good, broken] = await Promise.all([receiver(200), receiver(500)]);
    await b.signIn();
  });
  afterAll(async () => {
    await b?.close();
    good?.server.close();
    broken?.server.close();
  });
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('previews a payouts CSV with its errors, sends the fixed file as one batch and follows its progress', async () => {
    await b.api().post('/api/v1/payouts/setup').send({ identityName: 'Payouts Ltd', provider: 'test', class: 'company', walletName: 'Wallet', currency: 'RUB' }).expect(201);
    const card = { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV', cvv: '9731' };
    const destination = (await b.api().post('/api/v1/payouts/destinations').send({ name: 'Courier', currency: 'RUB', card }).expect(201)).body;

    await b.section('Payouts');
    await b.page.getByRole('link', { name: 'Upload a CSV' }).click();
    await b.heading('Upload payouts');
    const file = b.page.locator('input[type="file"]');
    const bad = ['destinationId,amount,currency', `${destination.id},150000,RUB`, `${destination.id},12.50,RUB`, 'not-an-id,100,rub'].join('\n');
    await file.setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const problems = b.page.getByRole('alert');
    await problems.getByText('line 3: amount must be a whole number of minor units, at least 1').waitFor();
    await problems.getByText(/line 4: destinationId must be a UUID; currency must be an ISO 4217 code/).waitFor();
    expect(await b.page.getByRole('button', { name: /Send 1 payout/ }).isDisabled()).toBe(true);
    await b.screenshot('payout-upload');

    const fixed = ['destinationId,amount,currency,metadata', `${destination.id},150000,RUB,"{""run"":""march""}"`, `${destination.id},1250,RUB,`].join('\n');
    await file.setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(fixed) });
    const preview = b.page.getByRole('table', { name: 'Payouts read from the file' });
    await preview.getByText('RUB 1,500.00').waitFor();
    await preview.getByText('RUB 12.50').waitFor();
    expect(await b.page.getByRole('alert').count()).toBe(0);
    await b.page.getByRole('button', { name: 'Send 2 payouts as one batch' }).dblclick();
    await b.heading(/Payout batch/);
    await b.page.getByTestId('batch-progress').getByText(/^2 of 2 final: 2 succeeded/).waitFor({ timeout: 30_000 });
    await b.screenshot('payout-batch');
    // The double click sent one batch.
    expect((await b.api().get('/api/v1/payouts/batches').expect(200)).body.items).toHaveLength(1);
    expect((await b.t.sandboxClient.control.ledger()).withdrawals.map((w) => w.amount).sort((x, y) => x - y)).toEqual([1250, 150000]);
  });

  it('adds a webhook endpoint, shows its deliveries, redelivers an event, pauses and deletes it; a failing one shows on the dashboard', async () => {
    await b.section('Webhook endpoints');
    await b.page.getByRole('textbox', { name: 'URL' }).fill(good.url);
    await b.page.getByRole('textbox', { name: 'Description' }).fill('Back office');
    await b.page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await b.page.getByTestId('endpoint-secret').innerText()).toMatch(/^whsec_/);
    await b.api().post('/api/v1/webhook-endpoints').send({ url: broken.url, description: 'Broken receiver' }).expect(201);

    // Something happens: a customer binds a card (customer.ready), which both endpoints are sent.
    const customer = (await b.api().post('/api/v1/customers').send({ email: 'hooks@example.com' }).expect(201)).body;
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    await waitFor(async () => good.received.length, (n) => n >= 1, { timeoutMs: 30_000, everyMs: 100, what: 'the good receiver got customer.ready' });
    await waitFor(
      async () => (await b.api().get('/api/v1/dashboard').expect(200)).body.failingEndpoints.count as number,
      (n) => n === 1,
      { timeoutMs: 30_000, everyMs: 100, what: 'the broken endpoint failing' },
    );

    await b.section('Dashboard');
    await b.page.getByRole('heading', { name: 'Failing webhook endpoints: 1' }).waitFor();
    await b.page.getByRole('link', { name: broken.url }).waitFor();

    await b.section('Events');
    const events = b.page.getByRole('table', { name: 'Events, newest first' });
    const ready = events.getByRole('row', { name: /customer\.ready/ });
    await ready.getByRole('link').first().click();
    await b.heading('Event customer.ready');
    await b.page.getByText(`"id": "${customer.id}"`).waitFor();
    await b.screenshot('event');

    await b.section('Webhook endpoints');
    await b.page.getByRole('row', { name: /Back office|127\.0\.0\.1.*\/hooks/ }).filter({ hasText: good.url }).getByRole('link').first().click();
    await b.heading(/Webhook endpoint/);
    const deliveries = b.page.getByRole('table', { name: 'Delivery attempts, newest first' });
    await deliveries.getByText('200').first().waitFor();
    const before = good.received.length;
    await deliveries.getByRole('button', { name: 'Redeliver' }).first().click();
    // Sending again is asked first, as the event page asks.
    const dialog = b.page.getByRole('dialog');
    await dialog.getByText('sent again to this endpoint').waitFor();
    expect(good.received.length).toBe(before);
    await dialog.getByRole('button', { name: 'Redeliver', exact: true }).click();
    await b.done('Queued again for this endpoint.');
    await waitFor(async () => good.received.length, (n) => n === before + 1, { timeoutMs: 30_000, everyMs: 100, what: 'the event delivered again' });
    // The same event, the same webhook-id.
    expect(good.received[before]).toBe(good.received[0]);
    // The confirmation fades out after it is answered: axe on it mid-fade reads its colours paler than they are.
    await dialog.waitFor({ state: 'detached' });
    await b.screenshot('webhook-endpoint');

    await b.confirm('Pause');
    await b.done('The endpoint is now paused.');
    await b.heading(/Webhook endpoint.*paused/);
    await b.confirm('Delete');
    await b.heading('Webhook endpoints');
    const endpoints = b.page.getByRole('table', { name: 'Webhook endpoints, newest first' });
    await endpoints.getByText(broken.url).waitFor();
    expect(await endpoints.getByText(good.url).count()).toBe(0);
  });
});
