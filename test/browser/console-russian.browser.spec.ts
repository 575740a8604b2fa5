import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAST_PAYOUT_TUNING } from '../payouts/support/payout-test-app';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';
import { ENGLISH_ONLY, englishOn } from './support/english-leaks';

const INSUFFICIENT = 'authorization_failed:insufficient_funds';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

interface Charge {
  id: string;
  status: string;
}

function futureExpDate(): string {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

/**
 * The console for a support agent whose browser speaks Russian: every main screen and confirmation in Russian, with
 * plurals in their Russian forms, money and dates as Russian writes them, no English word left, 0 serious or critical
 * axe violations, at a desktop's width and a phone's; and the switch to English, kept across a reload.
 */
(haveChromium ? describe : describe.skip)('the operator console in Russian (headless Chromium, ru-RU)', () => {
  let b: ConsoleBrowser;
  let receiver: Server;
  let standard: { id: string };
  let paying: { id: string; customerId: string };
  let declinedCharge: Charge;
  let endpoint: { id: string };
  let eventId: string;
  let batchId: string;
  let destinationId: string;
  let screens: [path: string, heading: RegExp][];

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
  const htmlLang = () => b.page.evaluate('document.documentElement.lang') as Promise<string>;
  const expectNoEnglish = async (screen: string) => expect({ screen, english: await englishOn(b.page) }).toEqual({ screen, english: [] });

  beforeAll(async () => {
    b = await ConsoleBrowser.start({ locale: 'ru-RU', screenshots: 'ru', payoutTuning: FAST_PAYOUT_TUNING });
    receiver = await new Promise<Server>((resolve) => {
      const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    const plan = (name: string, lines: { product: string; price: number; quantity?: number }[], extra = {}) =>
      b.api().post('/api/v1/plans').send({ name, product: name, currency: 'RUB', interval: 'month', lines, ...extra }).expect(201);
    // Four seats at 490 ₽: 1 960 ₽ a month.
    standard = (await plan('Стандарт', [{ product: 'Место', price: 49000, quantity: 4 }], { dunning: { retryDelays: ['1d', '3d'], finalAction: 'unpaid' } })).body;
    await plan('Квартальный', [{ product: 'Доступ', price: 290000 }], { intervalCount: 3, trialDays: 14 });
    paying = await subscribe('anna@example.com', standard.id, []);
    const declined = await subscribe('boris@example.com', standard.id, [INSUFFICIENT]);
    await firstCharge(paying.id, 'succeeded');
    declinedCharge = await firstCharge(declined.id, 'retrying');
    const port = (receiver.address() as AddressInfo).port;
    endpoint = (await b.api().post('/api/v1/webhook-endpoints').send({ url: `http://127.0.0.1:${port}/hooks`, events: ['*'], description: 'Основной' }).expect(201)).body;
    eventId = (await b.api().get('/api/v1/events').expect(200)).body.items[0].id;
    await b.api().post('/api/v1/payouts/setup').send({ identityName: 'Выплаты', provider: 'test', class: 'company', walletName: 'Кошелёк', currency: 'RUB' }).expect(201);
    const card = { cardNumber: CARDS.success, expDate: futureExpDate(), cardHolder: 'IVAN PETROV', cvv: '9731' };
    const destination = (await b.api().post('/api/v1/payouts/destinations').send({ name: 'Курьер', currency: 'RUB', card }).expect(201)).body;
    destinationId = destination.id;
    const items = [150000, 2500].map((amount) => ({ destinationId: destination.id, amount, currency: 'RUB' }));
    batchId = (await b.api().post('/api/v1/payouts/batches').send({ items }).expect(202)).body.id;
    screens = [
      ['/', /^Сводка$/],
      ['/revenue', /^Выручка$/],
      ['/customers', /^Клиенты$/],
      [`/customers/${paying.customerId}`, /^Клиент anna@example\.com$/],
      ['/subscriptions', /^Подписки$/],
      [`/subscriptions/${paying.id}`, /^Подписка /],
      ['/charges', /^Списания$/],
      [`/charges/${declinedCharge.id}`, /^Списание /],
      ['/plans', /^Тарифы$/],
      [`/plans/${standard.id}`, /^Тариф Стандарт/],
      ['/events', /^События$/],
      [`/events/${eventId}`, /^Событие [a-z_]+\.[a-z_.]+$/],
      ['/payouts', /^Выплаты$/],
      [`/payouts/batches/${batchId}`, /^Пакет выплат /],
      ['/webhook-endpoints', /^Адреса вебхуков$/],
      [`/webhook-endpoints/${endpoint.id}`, /^Адрес вебхука /],
    ];
  });
  afterAll(async () => {
    await b?.close();
    receiver?.close();
  });
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  it('knows which words are English only (the check has something to find)', () => {
    for (const word of ['dashboard', 'subscriptions', 'charges', 'retry', 'cancel', 'attempts']) expect(ENGLISH_ONLY.has(word)).toBe(true);
  });

  it('signs in in Russian, as the browser asks, with <html lang="ru">', async () => {
    await b.open('/');
    await b.heading('Консоль биллинга');
    expect(await htmlLang()).toBe('ru');
    await expectNoEnglish('sign-in');
    await b.screenshot('sign-in');
    await b.page.getByLabel('Токен администратора или API-ключ').fill(TEST_ADMIN_TOKEN);
    await b.page.getByRole('button', { name: 'Войти' }).click();
    await b.heading('Сводка');
    expect(await b.page.title()).toBe('Консоль биллинга');
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows every main screen in Russian on a ${size}, with no English word and no serious axe violation`, async () => {
      await b.page.setViewportSize(viewport);
      for (const [path, heading] of screens) {
        await b.open(path);
        await b.heading(heading);
        // The lists and figures each screen reads, then the words on it.
        await b.page.locator('.mantine-Loader-root').first().waitFor({ state: 'detached', timeout: 15_000 });
        await expectNoEnglish(`${size} ${path}`);
        await b.checkAccessibility(`${size} ${path}`);
      }
    });
  }

  it('writes plurals, money and dates as Russian does', async () => {
    await b.page.setViewportSize(DESKTOP);
    await b.open('/plans');
    const plans = b.page.getByRole('table', { name: 'Тарифы, сначала новые' });
    // 1 месяц, 3 месяца, 14 дней; 4 × 490 ₽ = 1 960,00 ₽ with Russian spacing and a comma.
    await plans.getByText('1 месяц', { exact: true }).waitFor();
    await plans.getByText('3 месяца', { exact: true }).waitFor();
    await plans.getByText('14 дней', { exact: true }).waitFor();
    await plans.getByText(/^1\s960,00\s₽$/).waitFor();
    await b.screenshot('plans');
    await b.open(`/subscriptions/${paying.id}`);
    await b.page.getByText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} Europe\/Moscow · \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} UTC$/).first().waitFor();
    await b.screenshot('subscription');
    await b.open(`/payouts/batches/${batchId}`);
    await b.page.getByText(/^1\s500,00\s₽$/).first().waitFor();
  });

  it('checks a payouts CSV in Russian: its problems, and how many payouts it read', async () => {
    await b.open('/payouts/upload');
    await b.heading('Загрузка выплат');
    const bad = ['destinationId,amount,currency', `${destinationId},150000,RUB`, `${destinationId},12.50,RUB`, 'not-an-id,100,rub'].join('\n');
    await b.page.locator('input[type="file"]').setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const problems = b.page.getByRole('alert');
    await problems.getByText('2 ошибки: исправьте файл и выберите его снова').waitFor();
    await problems.getByText('строка 3: amount должна быть целым числом минимальных единиц валюты, не меньше 1').waitFor();
    await problems.getByText(/^строка 4: destinationId должен быть UUID; currency должна быть кодом ISO 4217/).waitFor();
    await b.page.getByText('Прочитана 1 выплата', { exact: true }).waitFor();
    expect(await b.page.getByRole('button', { name: 'Отправить 1 выплату одним пакетом' }).isDisabled()).toBe(true);
    await expectNoEnglish('payout upload');
    await b.screenshot('payout-upload');
  });

  it('asks every confirmation in Russian, with no English word and no serious axe violation', async () => {
    const dialogs: [path: string, button: string, says: RegExp][] = [
      [`/subscriptions/${paying.id}`, 'Отменить в конце периода', /Подписка действует до .* затем отменяется.*1\s960,00\s₽ за период/],
      [`/subscriptions/${paying.id}`, 'Отменить сейчас', /Это действие нельзя отменить/],
      [`/subscriptions/${paying.id}`, 'Поставить на паузу', /Пока подписка на паузе, ничего не списывается/],
      // The ladder of 1d, 3d: three attempts, in the genitive plural.
      [`/charges/${declinedCharge.id}`, 'Повторить попытку', /не считается одной из 3 попыток графика/],
      [`/plans/${standard.id}`, 'В архив', /новые подписки не смогут использовать этот тариф/],
      [`/events/${eventId}`, 'Отправить повторно', /То же тело с тем же webhook-id/],
      [`/webhook-endpoints/${endpoint.id}`, 'Поставить на паузу', /на него ничего не отправляется/],
      [`/webhook-endpoints/${endpoint.id}`, 'Удалить', /больше ничего не получит/],
    ];
    for (const [path, button, says] of dialogs) {
      await b.open(path);
      await b.page.getByRole('button', { name: button, exact: true }).first().click();
      const dialog = b.page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toMatch(says);
      await expectNoEnglish(`dialog ${button}`);
      await b.checkDialogAccessibility(`dialog ${button} on ${path}`);
      if (button === 'Повторить попытку') await b.screenshot('charge-retry');
      await dialog.getByRole('button', { name: 'Оставить как есть' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  });

  it('retries a declined charge and says what it did, in Russian', async () => {
    await b.open(`/charges/${declinedCharge.id}`);
    await b.page.getByRole('button', { name: 'Повторить попытку', exact: true }).click();
    await b.page.getByRole('dialog').getByRole('button', { name: 'Повторить попытку', exact: true }).click();
    const outcome = b.page.getByRole('status').filter({ hasText: 'Попытка сделана' }).or(b.page.getByRole('alert')).first();
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/Готово\s+Попытка сделана: статус списания теперь «(успешно|в обработке|ожидает)»/);
    await expectNoEnglish('charge after retry');
  });

  it('switches to English in the shell, and keeps English across a reload', async () => {
    await b.open('/');
    await b.heading('Сводка');
    await b.page.getByRole('navigation', { name: 'Разделы' }).getByText('English', { exact: true }).click();
    await b.heading('Dashboard');
    expect(await htmlLang()).toBe('en');
    await b.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Subscriptions', exact: true }).waitFor();
    await b.page.reload();
    await b.heading('Dashboard');
    expect(await htmlLang()).toBe('en');
    expect(await b.page.title()).toBe('Billing console');
    await b.checkAccessibility('dashboard after switching to English');
    // And back, as a Russian agent who only looked.
    await b.page.getByRole('navigation', { name: 'Sections' }).getByText('Русский', { exact: true }).click();
    await b.heading('Сводка');
    await b.screenshot('dashboard');
  });
});
