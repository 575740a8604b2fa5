import { readFileSync } from 'node:fs';
import { ConsoleBrowser, haveChromium } from '../browser/support/console-browser';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ChargeView, EXPIRED } from './recovery-story';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The console's Recovery link action on a charge waiting for a new card: minted, shown read-only, copied. */
(haveChromium ? describe : describe.skip)('the operator console: a recovery link for a charge (headless Chromium)', () => {
  let b: ConsoleBrowser;
  let charge: ChargeView;

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ env: { LOG_LEVEL: 'warn' } });
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const plan = (await b.api().post('/api/v1/plans').send({ name: 'Basic', product: 'Basic', currency: 'RUB', interval: 'month', lines: [{ product: 'Basic', price: 99000 }] }).expect(201)).body;
    const customer = (await b.api().post('/api/v1/customers').send({ email: 'expired@example.com' }).expect(201)).body;
    await b.t.sandboxClient.control.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    const sub = (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' }).expect(201)).body;
    charge = await waitFor(
      async () => ((await b.api().get(`/api/v1/subscriptions/${sub.id}/charges`).expect(200)).body.items as ChargeView[])[0],
      (c) => c?.waitingForNewCard === true,
      { timeoutMs: 30_000, everyMs: 200, what: 'the first charge waiting for a new card' },
    );
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('mints a link, shows it read-only with a copy button, and the link opens the page', async () => {
    await b.open(`/charges/${charge.id}`);
    await b.heading(/Charge/);
    const effect = await b.confirm('Recovery link', 'Make the link');
    expect(effect).toContain('Links sent before for this charge stop working');
    const field = b.page.getByRole('textbox', { name: 'Recovery link' });
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(/\/pay\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    // axe on the action's answer (the page around it shows a long provider code in a scrolling <code>, outside this change).
    await b.page.evaluate(AXE_SOURCE);
    const violations = (await b.page.evaluate(
      `axe.run(document.querySelector('[role=status]'), { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))`,
    )) as string[];
    expect(violations).toEqual([]);
    await b.page.getByRole('button', { name: 'Copy link' }).click();
    await b.page.getByRole('button', { name: 'Copied' }).waitFor();
    expect((await b.t.api().get(`${new URL(url).pathname}`).unset('Authorization')).status).toBe(200);
  });

  it("flags the customer's card as waiting for replacement on the customer page", async () => {
    await b.open(`/customers/${charge.customerId}`);
    const flag = b.page.getByRole('status').filter({ hasText: 'Card waiting for replacement' });
    await flag.waitFor();
    expect(await flag.innerText()).toContain('1 charge waits for a new card');
    await b.checkAccessibility('customer with a card waiting for replacement');
  });
});
