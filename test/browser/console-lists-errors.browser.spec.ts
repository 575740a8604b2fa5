import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { ConsoleBrowser, haveChromium } from './support/console-browser';
import { englishOn } from './support/english-leaks';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

interface PendingItem {
  id: string;
  status: string;
}

/** What each language calls the things these tests look for. */
const WORDS = {
  en: {
    money: /RUB\s990\.00/,
    pendingCaption: "The customer's pending items, newest first",
    remove: 'Remove',
    removeTitle: 'Remove this pending item?',
    removeConfirm: 'Remove the item',
    removed: /Removed: .* will not be charged\./,
    cardExpired: 'Card expired',
    expiredBadge: 'expired',
    deliveries: 'Delivery attempts, newest first',
  },
  ru: {
    money: /990,00\s₽/,
    pendingCaption: 'Ожидающие позиции клиента, новые сверху',
    remove: 'Убрать',
    removeTitle: 'Убрать эту позицию?',
    removeConfirm: 'Убрать позицию',
    removed: /Убрано: .* не будет списано\./,
    cardExpired: 'Срок действия карты истёк',
    expiredBadge: 'срок истёк',
    deliveries: 'Попытки доставки, сначала новые',
  },
} as const;

/**
 * Names instead of ids in the events and deliveries lists, a customer's pending items (and removing one), the
 * expired-card flag after the sandbox declined a card as expired, and API errors in the console's language: in English
 * and Russian, at a desktop's width and a phone's, with axe on every screen and dialog.
 */
(haveChromium ? describe : describe.skip)('the operator console: names in lists, pending items, an expired card, errors in Russian (headless Chromium)', () => {
  let b: ConsoleBrowser;
  let receiver: Server;
  let anna: { id: string };
  let boris: { id: string };
  let annaSubscription: { id: string };
  let endpoint: { id: string };

  const addItem = async (description: string) =>
    (
      await b
        .api()
        .post(`/api/v1/customers/${anna.id}/charges`)
        .send({ lines: [{ product: description, price: 15000 }], currency: 'RUB', when: 'next_renewal', subscriptionId: annaSubscription.id, description })
        .expect(201)
    ).body as PendingItem;
  const itemStatus = async (id: string) => ((await b.api().get(`/api/v1/pending-items/${id}`).expect(200)).body as PendingItem).status;
  const pageWidth = () => b.page.evaluate('document.documentElement.scrollWidth') as Promise<number>;
  async function useLanguage(language: 'en' | 'ru'): Promise<void> {
    await b.page.evaluate(`localStorage.setItem('console.language', '${language}')`);
    await b.page.reload();
  }
  /** Every list on the page has its first page (axe then reads the screen as a person sees it, not mid-load). */
  async function listsLoaded(): Promise<void> {
    await waitFor(() => b.page.locator('.mantine-Loader-root').count(), (n) => n === 0, { timeoutMs: 30_000, everyMs: 50, what: "the page's lists loaded" });
  }
  async function noEnglish(screen: string): Promise<void> {
    expect({ screen, english: await englishOn(b.page) }).toEqual({ screen, english: [] });
  }

  beforeAll(async () => {
    b = await ConsoleBrowser.start();
    receiver = await new Promise<Server>((resolve) => {
      const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    endpoint = (await b.api().post('/api/v1/webhook-endpoints').send({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` }).expect(201)).body;
    const plan = (await b.api().post('/api/v1/plans').send({ name: 'Pro', product: 'Pro', currency: 'RUB', interval: 'month', lines: [{ product: 'Pro', price: 99000 }] }).expect(201)).body;
    const subscribe = async (email: string, card: string) => {
      const customer = (await b.api().post('/api/v1/customers').send({ email }).expect(201)).body;
      await b.api().post(`/api/v1/customers/${customer.id}/bindings`).send(await b.t.sandboxClient.cardForBinding(card)).expect(202);
      await waitFor(async () => (await b.api().get(`/api/v1/customers/${customer.id}`).expect(200)).body.status, (s) => s === 'ready', { timeoutMs: 30_000, everyMs: 100, what: `${email} ready` });
      const subscription = (await b.api().post('/api/v1/subscriptions').send({ customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' }).expect(201)).body;
      return { customer, subscription };
    };
    ({ customer: anna, subscription: annaSubscription } = await subscribe('anna@example.com', CARDS.success));
    // The sandbox's card that binds and then declines every charge as expired.
    ({ customer: boris } = await subscribe('boris@example.com', CARDS.renewalExpiredCard));
    await waitFor(async () => (await b.api().get(`/api/v1/subscriptions/${annaSubscription.id}/charges`).expect(200)).body.items[0]?.status, (s) => s === 'succeeded', {
      timeoutMs: 30_000,
      everyMs: 200,
      what: "anna's first charge paid",
    });
    await waitFor(async () => (await b.api().get(`/api/v1/customers/${boris.id}`).expect(200)).body.cardExpired, (expired) => expired === true, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: "boris's card flagged expired after the decline",
    });
    await waitFor(
      async () => (await b.api().get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=200`).expect(200)).body.items as { eventType: string | null }[],
      (items) => items.some((a) => a.eventType === 'subscription.created'),
      { timeoutMs: 30_000, everyMs: 200, what: 'a subscription.created delivery' },
    );
    await b.signIn();
  });
  afterAll(async () => {
    await b?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });
  afterEach(() => expect(b.takeRecords()).toEqual({ problems: [], foreignRequests: [], accessibility: [] }));

  for (const language of ['en', 'ru'] as const) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const words = WORDS[language];
      const screen = (name: string) => `${name} (${language}, ${size})`;

      it(`names the customer, plan and amount in the events list and the event type in deliveries (${language}, ${size})`, async () => {
        await b.page.setViewportSize(viewport);
        await useLanguage(language);
        await b.open('/events?type=subscription.created');
        const created = b.page.getByRole('row').filter({ hasText: 'subscription.created' }).filter({ hasText: 'anna@example.com' });
        await created.filter({ hasText: 'Pro' }).waitFor();
        await b.open('/events?type=charge.succeeded');
        await b.page.getByRole('row').filter({ hasText: 'anna@example.com' }).filter({ hasText: words.money }).waitFor();
        await listsLoaded();
        await b.checkAccessibility(screen('events'));
        if (language === 'ru') await noEnglish(screen('events'));
        if (size === 'phone') expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);

        await b.open(`/webhook-endpoints/${endpoint.id}`);
        await b.page.getByRole('table', { name: words.deliveries }).getByRole('row').filter({ hasText: 'subscription.created' }).first().waitFor();
        await listsLoaded();
        await b.checkAccessibility(screen('endpoint deliveries'));
        if (language === 'ru') await noEnglish(screen('endpoint deliveries'));
      });

      it(`lists the customer's pending items and removes one after a confirmation (${language}, ${size})`, async () => {
        await b.page.setViewportSize(viewport);
        // Names made of identifiers, which a Russian screen may show without an English word on it.
        const description = `setup-${language}-${size}`;
        const kept = await addItem(`kept-${language}-${size}`);
        const item = await addItem(description);
        await useLanguage(language);
        await b.open(`/customers/${anna.id}`);
        await b.heading(/anna@example\.com/);
        const table = b.page.getByRole('table', { name: words.pendingCaption });
        const row = table.getByRole('row').filter({ hasText: description });
        await row.filter({ hasText: language === 'en' ? /RUB\s150\.00/ : /150,00\s₽/ }).waitFor();
        await table.getByRole('row').filter({ hasText: `kept-${language}-${size}` }).waitFor();
        expect(await b.page.getByTestId('card-expired').count()).toBe(0);
        await listsLoaded();
        await b.checkAccessibility(screen('customer with pending items'));
        if (language === 'ru') await noEnglish(screen('customer with pending items'));
        if (size === 'phone') expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);

        await row.getByRole('button', { name: words.remove, exact: true }).click();
        const dialog = b.page.getByRole('dialog', { name: words.removeTitle });
        await dialog.getByText(description).waitFor();
        await b.checkDialogAccessibility(screen('remove a pending item'));
        if (language === 'ru') await noEnglish(screen('remove a pending item'));
        await dialog.getByRole('button', { name: words.removeConfirm, exact: true }).click();
        await dialog.waitFor({ state: 'detached' });
        await b.done(words.removed);
        await row.waitFor({ state: 'detached' });
        expect([await itemStatus(item.id), await itemStatus(kept.id)]).toEqual(['canceled', 'pending']);
      });

      it(`flags the expired card on the customer's page and in the customers list (${language}, ${size})`, async () => {
        await b.page.setViewportSize(viewport);
        await useLanguage(language);
        await b.open(`/customers/${boris.id}`);
        await b.heading(/boris@example\.com/);
        await b.page.getByTestId('card-expired').getByText(words.cardExpired, { exact: true }).waitFor();
        await listsLoaded();
        await b.checkAccessibility(screen('customer with an expired card'));
        if (language === 'ru') await noEnglish(screen('customer with an expired card'));
        await b.open('/customers');
        await b.page.getByRole('row').filter({ hasText: 'boris@example.com' }).getByText(words.expiredBadge, { exact: true }).waitFor();
        expect(await b.page.getByRole('row').filter({ hasText: 'anna@example.com' }).getByText(words.expiredBadge, { exact: true }).count()).toBe(0);
        await listsLoaded();
        await b.checkAccessibility(screen('customers'));
        if (size === 'phone') expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
      });
    }
  }

  it('says in Russian why the daemon refused: removing an item the renewal has billed meanwhile is a 409', async () => {
    await b.page.setViewportSize(DESKTOP);
    const item = await addItem('billed-meanwhile');
    await useLanguage('ru');
    await b.open(`/customers/${anna.id}`);
    const row = b.page.getByRole('table', { name: WORDS.ru.pendingCaption }).getByRole('row').filter({ hasText: 'billed-meanwhile' });
    await row.waitFor();
    // The renewal bills the item while the page still shows it pending.
    await b.api().post('/api/v1/test-clock').send({ advance: '32d' }).expect(200);
    await waitFor(() => itemStatus(item.id), (status) => status === 'billed', { timeoutMs: 60_000, everyMs: 200, what: 'the item billed by the renewal' });
    await row.getByRole('button', { name: WORDS.ru.remove, exact: true }).click();
    const dialog = b.page.getByRole('dialog', { name: WORDS.ru.removeTitle });
    await dialog.getByRole('button', { name: WORDS.ru.removeConfirm, exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText(/Текущее состояние этого не позволяет/).waitFor();
    expect(await alert.innerText()).toContain('state_conflict');
    // The daemon's English sentence ("Pending item … is billed already") is not on a Russian screen.
    expect(await alert.innerText()).not.toMatch(/billed already/);
    await b.checkDialogAccessibility('a refusal in Russian');
    await noEnglish('a refusal in Russian');
    expect(await itemStatus(item.id)).toBe('billed');
    // The one problem of this page is the refusal itself, which Chromium logs as a failed request.
    const records = b.takeRecords();
    expect(records).toEqual({ problems: ['error: Failed to load resource: the server responded with a status of 409 (Conflict)'], foreignRequests: [], accessibility: [] });
  });
});
