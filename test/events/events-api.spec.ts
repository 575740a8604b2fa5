import { DataSource } from 'typeorm';
import { EventRetentionService } from '../../src/events/event-retention.service';
import { EventsService } from '../../src/events/events.service';
import { SubscriptionLifecycleService } from '../../src/subscriptions/subscription-lifecycle.service';
import { startTestApp, TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { allEvents } from '../webhooks/support/webhook-fixtures';

const DAY = 86_400_000;

describe('GET /api/v1/events', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let planId: string;

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { TEST_CLOCK: 'true' } });
    dataSource = t.app.get(DataSource);
    // The business clock far from now: events still carry real time.
    await t.api().post('/api/v1/test-clock').send({ now: '2031-06-01T00:00:00.000Z' }).expect(200);
    planId = (await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201)).body.id;
  });
  afterAll(() => t?.close());

  async function subscribe(): Promise<{ id: string }> {
    const customer = await t.api().post('/api/v1/customers').send({}).expect(201);
    return (await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId }).expect(201)).body;
  }

  it('lists events newest first in pages, filters by type, and shows one by id', async () => {
    const before = Date.now();
    const subs = [await subscribe(), await subscribe(), await subscribe()];
    const paused = await t.api().post(`/api/v1/subscriptions/${subs[0].id}/pause`).send({}).expect(200);

    const page1 = await t.api().get('/api/v1/events?limit=2').expect(200);
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.items[0]).toMatchObject({ type: 'subscription.updated', data: { object: paused.body, previous: { status: 'incomplete' } } });
    expect(page1.body.items[1]).toMatchObject({ type: 'subscription.created', data: { object: { id: subs[2].id } } });
    const page2 = await t.api().get(`/api/v1/events?limit=2&cursor=${page1.body.nextCursor}`).expect(200);
    expect(page2.body.items.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([subs[1].id, subs[0].id]);
    expect(page2.body.nextCursor).toBeNull();

    const created = await allEvents(t.api, 'subscription.created');
    expect(created.map((e) => e.data.object.id)).toEqual([subs[2].id, subs[1].id, subs[0].id]);
    for (const e of created) {
      expect(Date.parse(e.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(e.createdAt)).toBeLessThanOrEqual(Date.now());
    }
    const one = await t.api().get(`/api/v1/events/${created[0].id}`).expect(200);
    // The list adds `about` (what the event is about, by name; allEvents leaves it out); the event itself is its webhook body.
    expect(page1.body.items[1].about).toMatchObject({ customerId: expect.any(String), planId, planName: expect.any(String) });
    expect(one.body).toEqual(created[0]);
    expect(one.body.about).toBeUndefined();
    await t.api().get('/api/v1/events/0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f').expect(404);
    await t.api().get('/api/v1/events/nope').expect(400);
    await t.api().get('/api/v1/events?type=charge.refunded').expect(400);
  });

  it('keeps the order of events recorded together', async () => {
    const sub = await subscribe();
    const view = (await t.api().get(`/api/v1/subscriptions/${sub.id}`).expect(200)).body;
    await dataSource.transaction((em) =>
      t.app.get(EventsService).record(em, [
        { type: 'charge.declined', data: { object: { id: 'same-moment', n: 1 } } },
        { type: 'charge.failed', data: { object: { id: 'same-moment', n: 2 } } },
        { type: 'subscription.updated', data: { object: view, previous: {} } },
      ]),
    );
    const newest = (await t.api().get('/api/v1/events?limit=3').expect(200)).body.items;
    expect(newest.map((e: { type: string }) => e.type)).toEqual(['subscription.updated', 'charge.failed', 'charge.declined']);
  });

  it('has no event for a change that was rolled back', async () => {
    const sub = await subscribe();
    const count = async () => (await allEvents(t.api)).length;
    const before = await count();
    await expect(
      dataSource.transaction(async (em) => {
        await t.app.get(SubscriptionLifecycleService).dunningExhausted(em, sub.id, { chargeId: sub.id, errorCode: 'x', finalAction: 'unpaid' }, new Date());
        throw new Error('the rest of the change failed');
      }),
    ).rejects.toThrow('the rest of the change failed');
    expect(await count()).toBe(before);
    expect((await t.api().get(`/api/v1/subscriptions/${sub.id}`)).body.status).toBe('incomplete');

    // The same change committed has its event.
    await dataSource.transaction((em) => t.app.get(SubscriptionLifecycleService).dunningExhausted(em, sub.id, { chargeId: sub.id, errorCode: 'x', finalAction: 'unpaid' }, new Date()));
    const [latest] = await allEvents(t.api);
    expect(latest).toMatchObject({ type: 'subscription.updated', data: { object: { id: sub.id, status: 'unpaid' }, previous: { status: 'incomplete' } } });
  });

  it('keeps events 30 days, in real time', async () => {
    const insert = (id: string, ageMs: number) =>
      dataSource.query(`INSERT INTO events (id, type, created_at, data) VALUES ($1, 'charge.failed', $2, '{"object":{}}')`, [id, new Date(Date.now() - ageMs)]);
    await insert('00000000-0000-7000-8000-000000000031', 31 * DAY);
    await insert('00000000-0000-7000-8000-000000000029', 29 * DAY);
    expect(await t.app.get(EventRetentionService).prune()).toBe(1);
    await t.api().get('/api/v1/events/00000000-0000-7000-8000-000000000031').expect(404);
    await t.api().get('/api/v1/events/00000000-0000-7000-8000-000000000029').expect(200);
  });
});
