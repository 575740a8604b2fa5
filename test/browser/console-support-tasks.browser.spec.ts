import type { Locator } from 'playwright-core';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';

/** A phone's width (an iPhone 14's CSS pixels). */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

interface Charge {
  id: string;
  status: string;
  amount: number;
  amountRefunded: number;
}

/** "RUB 1,510.00" as the English console writes it, any space between code and digits. */
const rub = (minor: number) => new RegExp(`RUB\\s${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }).replace(/[.,]/g, (c) => `\\${c}`)}`);

/**
 * A support agent's everyday tasks through the console alone, each from the page of the object it is about, at a
 * desktop's width and at a phone's: upgrade a subscription with the proration shown before confirming, refund part of
 * a charge, apply a coupon. Every click is counted (docs/console.md has the counts) and every new dialog is checked
 * with axe.
 */
(haveChromium ? describe : describe.skip)("the operator console: a support agent's tasks (headless Chromium)", () => {
  let b: ConsoleBrowser;
  let basic: { id: string };
  let pro: { id: string };
  /** Clicks per task and width, for the table in docs/console.md. */
  const clicks: Record<string, number> = {};
  let counting = '';

  async function click(target: Locator): Promise<void> {
    await target.click();
    clicks[counting] = (clicks[counting] ?? 0) + 1;
  }

  /** A customer with a card, on Basic, its first period paid. */
  async function payingSubscription(email: string): Promise<{ subscription: { id: string }; charge: Charge }> {
    const customer = (await b.api().post('/api/v1/customers').send({ email }).expect(201)).body;
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    const subscription = (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: basic.id, timezone: 'Europe/Moscow' }).expect(201)).body;
    const charge = await waitFor(
      async () => ((await b.api().get(`/api/v1/subscriptions/${subscription.id}/charges`).expect(200)).body.items as Charge[])[0],
      (c) => c?.status === 'succeeded',
      { timeoutMs: 30_000, everyMs: 200, what: `the first charge of ${subscription.id} paid` },
    );
    return { subscription, charge };
  }

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    const plan = (name: string, price: number) => b.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] }).expect(201);
    basic = (await plan('Basic', 99000)).body;
    pro = (await plan('Pro', 250000)).body;
    await b.api().post('/api/v1/coupons').send({ code: 'SPRING50', name: 'Spring: half price', percentOff: 50, duration: 'forever' }).expect(201);
    await b.signIn();
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  const pageWidth = () => b.page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`upgrades with the proration shown first, refunds part of a charge and applies a coupon (${size})`, async () => {
      await b.page.setViewportSize(viewport);
      const { subscription, charge } = await payingSubscription(`support-${size}@example.com`);
      const page = b.page;

      // Upgrade Basic → Pro: the preview's figures are on screen before the confirm button can be pressed.
      counting = `upgrade (${size})`;
      await b.open(`/subscriptions/${subscription.id}`);
      await b.heading(/Subscription/);
      await page.getByTestId('subscription-amount').getByText(/RUB\s990\.00 \(1 seat × RUB\s990\.00\)/).waitFor();
      const expected = (await b.api().post(`/api/v1/subscriptions/${subscription.id}/change/preview`).send({ planId: pro.id, quantity: 1 }).expect(200)).body as { net: number };
      expect(expected.net).toBeGreaterThan(0);
      await click(page.getByRole('button', { name: 'Change plan or quantity' }));
      const dialog = page.getByRole('dialog', { name: 'Change plan or quantity' });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: 'Confirm the change' });
      expect(await confirm.isDisabled()).toBe(true);
      await click(dialog.getByRole('combobox', { name: 'Plan' }));
      await click(page.getByRole('option', { name: /^Pro:/ }));
      const preview = dialog.getByTestId('change-preview');
      await preview.getByText('Charged now').waitFor();
      await preview.getByText(rub(expected.net)).first().waitFor();
      await preview.getByText(/is charged to the customer's card when the change applies/).waitFor();
      await waitFor(() => confirm.isDisabled(), (disabled) => !disabled, { timeoutMs: 10_000, everyMs: 50, what: 'the confirm button enabled' });
      await b.checkDialogAccessibility(`change dialog (${size})`);
      if (size === 'desktop') await b.screenshot('subscription-change');
      if (size === 'phone') expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      await click(confirm);
      await dialog.waitFor({ state: 'detached' });
      await b.done('Changed: the subscription is on its new plan and quantity now.');
      await page.getByTestId('subscription-amount').getByText(/RUB\s2,500\.00 \(1 seat × RUB\s2,500\.00\)/).waitFor();
      await page.getByText(/Pro, RUB\s2,500\.00/).waitFor();
      expect((await b.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body.planId).toBe(pro.id);

      // Refund RUB 100.00 of the RUB 990.00 the first period paid, to the card.
      counting = `refund part of a charge (${size})`;
      await b.open(`/charges/${charge.id}`);
      await b.heading(/Charge/);
      await click(page.getByRole('button', { name: 'Refund', exact: true }));
      const refund = page.getByRole('dialog', { name: 'Refund this charge' });
      await refund.waitFor();
      await refund.getByRole('textbox', { name: 'Amount, RUB' }).fill('100');
      await refund.getByText(/RUB\s100\.00 goes back to the card the charge was paid with/).waitFor();
      await b.checkDialogAccessibility(`refund dialog (${size})`);
      if (size === 'desktop') await b.screenshot('charge-refund');
      await click(refund.getByRole('button', { name: /^Refund RUB\s100\.00$/ }));
      await refund.waitFor({ state: 'detached' });
      await b.done(/Refund of RUB\s100\.00 sent to the provider|RUB\s100\.00 refunded/);
      await page.getByRole('table', { name: 'Refunds of this charge, newest first' }).getByRole('row', { name: /RUB\s100\.00.*succeeded/ }).waitFor({ timeout: 30_000 });
      await page.getByTestId('amount-refunded').getByText(/RUB\s100\.00 of RUB\s990\.00/).waitFor({ timeout: 30_000 });
      expect((await b.api().get(`/api/v1/charges/${charge.id}`).expect(200)).body.amountRefunded).toBe(10000);

      // Apply coupon SPRING50.
      counting = `apply a coupon (${size})`;
      await b.open(`/subscriptions/${subscription.id}`);
      await b.heading(/Subscription/);
      await click(page.getByRole('button', { name: 'Apply a coupon' }));
      const coupon = page.getByRole('dialog', { name: 'Apply a coupon' });
      await coupon.getByRole('textbox', { name: 'Coupon code' }).fill('spring50');
      await b.checkDialogAccessibility(`coupon dialog (${size})`);
      await click(coupon.getByRole('button', { name: 'Apply', exact: true }));
      await coupon.waitFor({ state: 'detached' });
      await b.done('Coupon SPRING50 applied.');
      await page.getByText('50% off, forever').waitFor();
      expect((await b.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body.discount).toMatchObject({ code: 'SPRING50', percentOff: 50 });
      if (size === 'phone') expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    });
  }

  it('shows a change waiting for the renewal and drops it; removes the coupon (desktop)', async () => {
    await b.page.setViewportSize(DESKTOP);
    const page = b.page;
    const { subscription } = await payingSubscription('pending@example.com');
    await b.api().post(`/api/v1/subscriptions/${subscription.id}/change`).send({ planId: pro.id, quantity: 2, effective: 'period_end' }).expect(200);
    await b.api().post(`/api/v1/subscriptions/${subscription.id}/discount`).send({ couponCode: 'SPRING50' }).expect(200);
    counting = 'drop a pending change (desktop)';
    await b.open(`/subscriptions/${subscription.id}`);
    await page.getByText(/^To\s*Pro\s*, 2 seats, from/).waitFor();
    await click(page.getByRole('button', { name: 'Drop the pending change' }));
    await b.checkDialogAccessibility('drop the pending change dialog');
    await click(page.getByRole('dialog').getByRole('button', { name: 'Drop it' }));
    await b.done('The pending change is dropped.');
    await page.getByRole('button', { name: 'Drop the pending change' }).waitFor({ state: 'detached' });
    expect((await b.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body.pendingChange).toBeNull();

    counting = 'remove a coupon (desktop)';
    await page.getByText('50% off, forever').waitFor();
    await click(page.getByRole('button', { name: 'Remove the coupon' }));
    await b.checkDialogAccessibility('remove the coupon dialog');
    await click(page.getByRole('dialog').getByRole('button', { name: 'Remove' }));
    await b.done('The coupon is removed.');
    await page.getByText('50% off, forever').waitFor({ state: 'detached' });
  });

  it('creates a coupon, shows the credit balance, charges a one-off and runs billing now (desktop)', async () => {
    await b.page.setViewportSize(DESKTOP);
    const page = b.page;
    const { subscription, charge } = await payingSubscription('one-off@example.com');

    counting = 'create a coupon (desktop)';
    await b.section('Coupons');
    await click(page.getByRole('button', { name: 'New coupon' }));
    const form = page.getByRole('dialog', { name: 'New coupon' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Autumn: 10% off once');
    await form.getByRole('textbox', { name: 'Code' }).fill('autumn10');
    await b.checkDialogAccessibility('new coupon dialog');
    await click(form.getByRole('button', { name: 'Create the coupon' }));
    await form.waitFor({ state: 'detached' });
    await b.done('Coupon AUTUMN10 created.');
    await page.getByRole('table', { name: 'Coupons, newest first' }).getByRole('row', { name: /AUTUMN10.*10% off.*once/ }).waitFor();
    await b.checkAccessibility('coupons');

    // RUB 50.00 of the first period back to the credit balance: the customer page shows it and the entry.
    await b.api().post(`/api/v1/charges/${charge.id}/refunds`).send({ amount: 5000, to: 'balance' }).expect(202);
    const customerId = (await b.api().get(`/api/v1/subscriptions/${subscription.id}`).expect(200)).body.customerId as string;
    counting = 'charge a one-off now (desktop)';
    await b.open(`/customers/${customerId}`);
    await b.page.getByTestId('balance-amounts').getByText(/RUB\s50\.00/).waitFor();
    await page.getByRole('table', { name: 'Credit balance entries, newest first' }).getByRole('row', { name: /refund.*RUB\s50\.00/ }).waitFor();
    await click(page.getByRole('button', { name: 'Charge now or on the next invoice' }));
    const oneOff = page.getByRole('dialog', { name: 'One-off charge' });
    await oneOff.getByRole('textbox', { name: /What it is for/ }).fill('Setup call');
    await oneOff.getByRole('textbox', { name: /^Price/ }).fill('150');
    await oneOff.getByText(/RUB\s150\.00 is charged to the customer's card now/).waitFor();
    await b.checkDialogAccessibility('one-off charge dialog');
    await click(oneOff.getByRole('button', { name: /^Charge RUB\s150\.00 now$/ }));
    await oneOff.waitFor({ state: 'detached' });
    await b.done(/One-off charge of RUB\s150\.00 made/);
    await page.getByTestId('balance-amounts').getByText('No credit balance.').or(page.getByTestId('balance-amounts').getByText(/RUB\s0\.00/)).waitFor();

    counting = 'run billing now (desktop)';
    await click(page.getByRole('button', { name: 'Run billing now' }));
    await page.getByTestId('billing-run-result').getByText(/^Billing ran: \d+ charges? made/).waitFor();
  });

  it('makes an API key shown once with a copy button, lists it and revokes it (desktop)', async () => {
    const page = b.page;
    counting = 'create an API key (desktop)';
    await b.section('API keys');
    await click(page.getByRole('button', { name: 'New API key' }));
    const form = page.getByRole('dialog', { name: 'New API key' });
    await form.getByRole('textbox', { name: 'Name' }).fill('storefront');
    await click(form.getByLabel('Scopes', { exact: true }));
    await click(page.getByRole('option', { name: 'customers:write' }));
    // The list of scopes stays open for more; a click elsewhere in the dialog folds it.
    await click(form.getByRole('textbox', { name: 'Name' }));
    await b.checkDialogAccessibility('new API key dialog');
    await click(form.getByRole('button', { name: 'Create the key' }));
    await form.waitFor({ state: 'detached' });
    const secret = await page.getByTestId('new-api-key').innerText();
    expect(secret).toMatch(/^bk_.{43}$/);
    await page.getByRole('button', { name: 'Copy the key' }).waitFor();
    const row = page.getByRole('table', { name: 'API keys, newest first' }).getByRole('row', { name: /storefront.*customers:write.*active/ });
    await row.waitFor();
    await b.checkAccessibility('API keys');

    counting = 'revoke an API key (desktop)';
    await click(row.getByRole('button', { name: 'Revoke' }));
    const confirm = page.getByRole('dialog', { name: 'Revoke the key storefront?' });
    await b.checkDialogAccessibility('revoke API key dialog');
    await click(confirm.getByRole('button', { name: 'Revoke' }));
    await b.done('Key storefront revoked.');
    await page.getByRole('table', { name: 'API keys, newest first' }).getByRole('row', { name: /storefront.*revoked/ }).waitFor();
  });

  it("moves a plan's subscribers to another plan and follows the migration to done (desktop)", async () => {
    const page = b.page;
    counting = 'migrate a plan (desktop)';
    await b.open(`/plans/${basic.id}`);
    await b.heading(/Basic/);
    await click(page.getByRole('button', { name: 'Move subscribers to another plan' }));
    const dialog = page.getByRole('dialog', { name: 'Move the subscribers of Basic' });
    await click(dialog.getByRole('combobox', { name: 'To plan' }));
    await click(page.getByRole('option', { name: /^Pro:/ }));
    await dialog.getByText(/moves from RUB\s990\.00 to RUB\s2,500\.00 \(Pro\) at its first renewal at least 30 days ahead/).waitFor();
    await b.checkDialogAccessibility('plan migration dialog');
    await click(dialog.getByRole('button', { name: 'Move the subscribers' }));
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('migration-progress').getByText(/^Done: \d+ subscriptions? walked \(\d+ scheduled, \d+ skipped\)\.$/).waitFor({ timeout: 30_000 });
    await b.checkAccessibility('plan with its migration');
  });

  it('took these clicks per task (from the page of the object it is about; typing not counted)', () => {
    console.log(Object.entries(clicks).map(([task, n]) => `${task} — ${n}`).join('\n'));
    expect(clicks).toEqual({
      'upgrade (desktop)': 4,
      'refund part of a charge (desktop)': 2,
      'apply a coupon (desktop)': 2,
      'upgrade (phone)': 4,
      'refund part of a charge (phone)': 2,
      'apply a coupon (phone)': 2,
      'create a coupon (desktop)': 2,
      'charge a one-off now (desktop)': 2,
      'run billing now (desktop)': 1,
      'create an API key (desktop)': 5,
      'revoke an API key (desktop)': 2,
      'migrate a plan (desktop)': 4,
      'drop a pending change (desktop)': 2,
      'remove a coupon (desktop)': 2,
    });
  });
});
