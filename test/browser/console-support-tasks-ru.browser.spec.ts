import { CARDS } from '../support/test-cards';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';
import { englishOn } from './support/english-leaks';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

/**
 * The new screens and dialogs for a support agent whose browser speaks Russian (change of plan with its preview,
 * refund, coupon, one-off charge, the credit balance, coupons, API keys): no English word left, money as Russian
 * writes it, 0 serious or critical axe violations, at a desktop's width and a phone's.
 */
(haveChromium ? describe : describe.skip)("the operator console's support screens in Russian (headless Chromium, ru-RU)", () => {
  let b: ConsoleBrowser;
  let subscription: { id: string; customerId: string };
  let chargeId: string;

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ locale: 'ru-RU', screenshots: 'ru' });
    const plan = (name: string, price: number) => b.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines: [{ product: name, price }] }).expect(201);
    const basic = (await plan('Basic', 99000)).body;
    await plan('Pro', 250000);
    await b.api().post('/api/v1/coupons').send({ code: 'SPRING50', name: 'Весна', percentOff: 50, duration: 'repeating', durationPeriods: 3 }).expect(201);
    const customer = (await b.api().post('/api/v1/customers').send({ email: 'ru@example.com' }).expect(201)).body;
    await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(CARDS.success)).expect(202);
    subscription = (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: basic.id, quantity: 4, timezone: 'Europe/Moscow' }).expect(201)).body;
    const charge = await waitFor(
      async () => ((await b.api().get(`/api/v1/subscriptions/${subscription.id}/charges`).expect(200)).body.items as { id: string; status: string }[])[0],
      (c) => c?.status === 'succeeded',
      { timeoutMs: 30_000, everyMs: 200, what: 'the first charge paid' },
    );
    chargeId = charge.id;
    await b.api().post(`/api/v1/charges/${chargeId}/refunds`).send({ amount: 5000, to: 'balance' }).expect(202);
    await b.api().post(`/api/v1/subscriptions/${subscription.id}/discount`).send({ couponCode: 'SPRING50' }).expect(200);
    await b.open('/');
    await b.page.getByLabel('Токен администратора или API-ключ').fill(TEST_ADMIN_TOKEN);
    await b.page.getByRole('button', { name: 'Войти' }).click();
    await b.heading('Сводка');
  });
  afterAll(() => b?.close());
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  /** Axe and the English check on a dialog once it is fully shown. */
  async function dialogInRussian(screen: string, screenshot?: string): Promise<void> {
    await b.dialogSettled();
    expect({ screen, english: await englishOn(b.page) }).toEqual({ screen, english: [] });
    if (screenshot) await b.screenshot(screenshot);
    else await b.checkAccessibility(screen);
  }

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows the subscription's seats, amount and coupon, the change preview, the refund and the one-off charge in Russian (${size})`, async () => {
      await b.page.setViewportSize(viewport);
      const page = b.page;
      await b.open(`/subscriptions/${subscription.id}`);
      await page.getByTestId('subscription-amount').getByText(/3\s960,00\s₽ \(4 места × 990,00\s₽\)/).waitFor();
      await page.getByText('скидка 50%, осталось 3 периода').waitFor();
      expect(await englishOn(page)).toEqual([]);
      await page.getByRole('button', { name: 'Сменить тариф или количество' }).click();
      const dialog = page.getByRole('dialog', { name: 'Смена тарифа или количества' });
      await dialog.getByRole('combobox', { name: 'Тариф' }).click();
      await page.getByRole('option', { name: /^Pro: 2\s500,00\s₽ за 1 месяц$/ }).click();
      await dialog.getByTestId('change-preview').getByText('Списывается сейчас').waitFor();
      await dialogInRussian(`change dialog (${size})`, size === 'desktop' ? 'subscription-change' : undefined);
      await dialog.getByRole('button', { name: 'Закрыть' }).click();
      await dialog.waitFor({ state: 'detached' });

      await b.open(`/charges/${chargeId}`);
      await page.getByTestId('amount-refunded').getByText(/50,00\s₽ из 3\s960,00\s₽/).waitFor();
      await page.getByRole('table', { name: 'Возвраты по списанию, сначала новые' }).getByText('на баланс').waitFor();
      await page.getByRole('button', { name: 'Вернуть деньги' }).click();
      const refund = page.getByRole('dialog', { name: 'Возврат по списанию' });
      await refund.getByRole('textbox', { name: 'Сумма, RUB' }).fill('100,50');
      await refund.getByRole('button', { name: /^Вернуть 100,50\s₽$/ }).waitFor();
      await dialogInRussian(`refund dialog (${size})`, size === 'desktop' ? 'charge-refund' : undefined);
      await refund.getByRole('button', { name: 'Закрыть' }).click();

      await b.open(`/customers/${subscription.customerId}`);
      await page.getByTestId('balance-amounts').getByText(/50,00\s₽/).waitFor();
      expect(await englishOn(page)).toEqual([]);
      await page.getByRole('button', { name: 'Разовое списание' }).click();
      const oneOff = page.getByRole('dialog', { name: 'Разовое списание' });
      await oneOff.getByRole('textbox', { name: /За что/ }).fill('Настройка');
      await oneOff.getByRole('textbox', { name: /^Цена/ }).fill('1500');
      await oneOff.getByRole('button', { name: /^Списать 1\s500,00\s₽ сейчас$/ }).waitFor();
      await dialogInRussian(`one-off dialog (${size})`);
      await oneOff.getByRole('button', { name: 'Закрыть' }).click();
      if (size === 'phone') expect(await b.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    });
  }

  it('shows the coupons and API keys pages and their forms in Russian (desktop)', async () => {
    await b.page.setViewportSize(DESKTOP);
    const page = b.page;
    await b.open('/coupons');
    await page.getByRole('table', { name: 'Купоны, сначала новые' }).getByText('3 периода').waitFor();
    expect(await englishOn(page)).toEqual([]);
    await page.getByRole('button', { name: 'Новый купон' }).click();
    await dialogInRussian('new coupon dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click();
    await b.open('/api-keys');
    await page.getByText('API-ключей пока нет.').waitFor();
    await page.getByRole('button', { name: 'Новый API-ключ' }).click();
    await dialogInRussian('new API key dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click();
  });
});
