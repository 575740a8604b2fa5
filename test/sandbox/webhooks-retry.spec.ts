import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { Webhook } from '../../src/gateway/provider-api.types';
import { PROCESSING_MAX_ATTEMPTS } from '../../src/sandbox/webhooks/webhook-retry-schedule';
import { freePort } from '../support/daemon';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { sleep, waitFor } from '../support/wait';
import { SANDBOX_SUITE_DELAYS, useSandbox } from './support/sandbox-suite';
import { WebhookReceiver } from './support/webhook-receiver';

const CUSTOMER_TYPES = ['CustomerCreated', 'CustomerReady', 'CustomerBindingStarted', 'CustomerBindingSucceeded', 'CustomerBindingFailed'];

describe('sandbox: webhook retries, order and giving up', () => {
  let sandbox: SandboxClient;
  let receiver: WebhookReceiver;
  useSandbox((started) => (sandbox = started));

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    await sandbox.control.setWebhookRetryScale(1);
    receiver.received.length = 0;
    receiver.answerWith(() => 200);
  });

  async function customersWebhook(url = receiver.url, client = sandbox): Promise<Webhook> {
    const res = await client.call<Webhook>('POST', '/v2/processing/webhooks', { body: { scope: { topic: 'CustomersTopic', shopID: SANDBOX_SHOP_ID, eventTypes: CUSTOMER_TYPES }, url } });
    expect(res.status).toBe(201);
    return res.data;
  }

  it('has the real schedule by default; the scale is a control setting in (0, 1]', async () => {
    expect((await sandbox.control.send<{ webhookRetryScale: number }>('GET', 'config')).data.webhookRetryScale).toBe(1);
    for (const bad of [0, -1, 2, 'fast']) expect((await sandbox.control.send('POST', 'config', { webhookRetryScale: bad })).status).toBe(400);
    expect((await sandbox.control.send<{ webhookRetryScale: number }>('POST', 'config', { webhookRetryScale: 0.001 })).data.webhookRetryScale).toBe(0.001);
  });

  it('retries every answer but 200 on the provider schedule (scaled), and records each attempt', async () => {
    await sandbox.control.setWebhookRetryScale(0.001);
    const answers = [500, 201, 200];
    receiver.answerWith(() => answers.shift() ?? 200);
    const webhook = await customersWebhook();
    await sandbox.createCustomer();
    await receiver.waitFor((r) => r.length === 3);
    const [delivery] = await waitFor(
      () => sandbox.control.webhookDeliveries({ webhookID: webhook.id }),
      (list) => list[0]?.status !== 'pending',
      { what: 'the delivery settled' },
    );
    expect(delivery).toMatchObject({ api: 'processing', eventType: 'CustomerCreated', status: 'delivered' });
    expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([500, 201, 200]);
    // 30 s then 5 min, scaled by 0.001: at least 30 ms, then at least 300 ms after the attempt before.
    const [first, second, third] = receiver.received.map((r) => r.at);
    expect(second - first).toBeGreaterThanOrEqual(29);
    expect(third - second).toBeGreaterThanOrEqual(299);
    expect(third - second).toBeGreaterThan(second - first);
    // Every attempt carries the same bytes.
    expect(new Set(receiver.received.map((r) => r.rawBody.toString('base64'))).size).toBe(1);
  });

  it('keeps one customer’s events in order behind a failing one, without holding back another customer', async () => {
    await sandbox.control.setWebhookRetryScale(0.001);
    const { customer: held } = await sandbox.createCustomer();
    // The first customer's receiver fails until the other customer's whole life has arrived: were one failing queue
    // to hold back the others, that would never happen (and the wait below would fail).
    const otherIsReady = () => receiver.accepted().some((x) => x.json.customer.id !== held.id && x.json.eventType === 'CustomerReady');
    receiver.answerWith((r) => (r.json.customer.id === held.id && !otherIsReady() ? 503 : 200));
    await customersWebhook();
    // Registered after the first customer existed: bind its card so that its events queue up behind a failure.
    await sandbox.bindCard(held.id, CARDS.success);
    const other = await sandbox.readyCustomer();
    const expected = ['CustomerBindingStarted', 'CustomerBindingSucceeded', 'CustomerReady'];
    await receiver.waitFor((r) => r.filter((x) => x.answered === 200 && x.json.customer.id === held.id).length === 3);
    const heldAccepted = receiver.accepted().filter((r) => r.json.customer.id === held.id);
    expect(heldAccepted.map((r) => r.json.eventType)).toEqual(expected);
    // In order: until its first event got through, only that event of the held customer was tried, again and again.
    const heldTries = receiver.received.filter((r) => r.json.customer.id === held.id);
    const firstAccepted = heldTries.findIndex((r) => r.answered === 200);
    expect(firstAccepted).toBeGreaterThanOrEqual(1);
    expect(heldTries.slice(0, firstAccepted + 1).every((r) => r.json.eventType === 'CustomerBindingStarted')).toBe(true);
    expect(receiver.accepted().filter((r) => r.json.customer.id === other.id).map((r) => r.json.eventType)).toEqual(['CustomerCreated', ...expected]);
  });

  it('delivers once a receiver that was down comes up: refused attempts are recorded', async () => {
    await sandbox.control.setWebhookRetryScale(0.001);
    const port = await freePort();
    const webhook = await customersWebhook(`http://127.0.0.1:${port}/late`);
    await sandbox.createCustomer();
    await waitFor(
      () => sandbox.control.webhookDeliveries(),
      (list) => list[0]?.attempts.length >= 1,
      { what: 'a refused attempt recorded' },
    );
    const late = await WebhookReceiver.start(port);
    try {
      await late.waitFor((r) => r.length === 1);
      const [delivery] = await waitFor(
        () => sandbox.control.webhookDeliveries({ webhookID: webhook.id }),
        (list) => list[0].status === 'delivered',
        { what: 'the delivery delivered' },
      );
      expect(delivery.attempts[0]).toMatchObject({ httpStatus: null, error: 'ECONNREFUSED' });
      expect(delivery.attempts[delivery.attempts.length - 1].httpStatus).toBe(200);
    } finally {
      await late.close();
    }
  });

  it('processing: after the last retry every queued event of that customer is dropped; later events start afresh', async () => {
    // The whole schedule (30 s ... and 24 hourly retries) shrunk to about a second.
    await sandbox.control.setWebhookRetryScale(0.00001);
    receiver.answerWith(() => 500);
    await customersWebhook();
    const { customer } = await sandbox.createCustomer();
    await sandbox.bindCard(customer.id, CARDS.success);
    const list = await waitFor(
      () => sandbox.control.webhookDeliveries(),
      (all) => all.length === 4 && all.every((d) => d.status === 'dropped'),
      { timeoutMs: 60_000, what: 'four deliveries dropped' },
    );
    expect(list.map((d) => [d.eventType, d.status, d.reason, d.attempts.length])).toEqual([
      ['CustomerCreated', 'dropped', 'retries exhausted', PROCESSING_MAX_ATTEMPTS],
      ['CustomerBindingStarted', 'dropped', 'retries exhausted', 0],
      ['CustomerBindingSucceeded', 'dropped', 'retries exhausted', 0],
      ['CustomerReady', 'dropped', 'retries exhausted', 0],
    ]);
    expect(PROCESSING_MAX_ATTEMPTS).toBe(29);
    expect(receiver.received).toHaveLength(PROCESSING_MAX_ATTEMPTS);

    receiver.answerWith(() => 200);
    await sandbox.bindCard(customer.id, CARDS.secondSuccess);
    const fresh = await receiver.waitForTypes(['CustomerBindingStarted', 'CustomerBindingSucceeded']);
    expect(fresh.map((r) => r.json.eventType)).toEqual(['CustomerBindingStarted', 'CustomerBindingSucceeded']);
  });

  it('wallet: a delivery not made within 24 h (scaled) is dead, and the next one of the object is still tried', async () => {
    await sandbox.control.setWebhookRetryScale(0.00001);
    receiver.answerWith(() => 500);
    const identity = await sandbox.createIdentity();
    const res = await sandbox.call('POST', '/wallet/v0/webhooks', {
      body: { identityID: identity.id, scope: { topic: 'DestinationsTopic', eventTypes: ['DestinationCreated', 'DestinationAuthorized'] }, url: receiver.url },
    });
    expect(res.status).toBe(201);
    await sandbox.authorizedDestination(identity.id, CARDS.success);
    const list = await waitFor(
      () => sandbox.control.webhookDeliveries({ api: 'wallet' }),
      (all) => all.length === 2 && all.every((d) => d.status === 'dead'),
      { timeoutMs: 60_000, what: 'two wallet deliveries dead' },
    );
    for (const delivery of list) {
      expect(delivery.reason).toBe('not delivered within 24 h');
      // 30 s, 600 s, 1800 s, then hourly: more than five attempts fit in a (scaled) day.
      expect(delivery.attempts.length).toBeGreaterThan(5);
      const span = Date.parse(delivery.attempts[delivery.attempts.length - 1].at) - Date.parse(delivery.attempts[0].at);
      expect(span).toBeLessThanOrEqual(864 + 200);
    }
    expect(list.map((d) => d.eventType)).toEqual(['DestinationCreated', 'DestinationAuthorized']);
  });

  it('carries pending deliveries over a restart with a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-webhook-retry-'));
    const stateFile = join(dir, 'state.json');
    try {
      const first = await SandboxClient.start({ stateFile, delays: SANDBOX_SUITE_DELAYS });
      await first.control.setWebhookRetryScale(0.01);
      receiver.answerWith(() => 503);
      await customersWebhook(receiver.url, first);
      await first.createCustomer();
      // Closed once the sandbox has recorded the refused attempt (the receiver answering is not enough).
      await waitFor(
        () => first.control.webhookDeliveries(),
        (list) => list[0]?.attempts.length === 1,
        { what: 'the refused attempt recorded' },
      );
      await first.close();
      expect(receiver.received).toHaveLength(1);

      receiver.answerWith(() => 200);
      const second = await SandboxClient.start({ stateFile, delays: SANDBOX_SUITE_DELAYS });
      try {
        await receiver.waitFor((r) => r.length === 2);
        const [delivery] = await waitFor(
          () => second.control.webhookDeliveries(),
          (list) => list[0]?.status === 'delivered',
          { what: 'the delivery delivered after the restart' },
        );
        expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([503, 200]);
        expect(receiver.received[1].rawBody.equals(receiver.received[0].rawBody)).toBe(true);
        expect(receiver.received[1].headers['content-signature']).toBe(receiver.received[0].headers['content-signature']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reset forgets pending deliveries and their history', async () => {
    receiver.answerWith(() => 500);
    await customersWebhook();
    await sandbox.createCustomer();
    await receiver.waitFor((r) => r.length === 1);
    await sandbox.control.reset();
    expect(await sandbox.control.webhookDeliveries()).toEqual([]);
    await sleep(50);
    expect(receiver.received).toHaveLength(1);
  });
});
