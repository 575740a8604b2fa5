import { Writable } from 'node:stream';
import { Client } from 'pg';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';

const PAN = CARDS.success;
const CVV = '8137';

/**
 * Whether `text` holds `secret`. A short one (the CVV) counts only as a token of its own: as a bare substring it
 * turns up by chance inside ids (a uuid's group of four), hashes and timestamps (a loaded run found "8137" in a
 * database dump that held no card data), while a CVV kept in clear would stand between quotes or other punctuation.
 */
function holds(text: string, secret: string): boolean {
  if (secret.length >= 8) return text.includes(secret);
  return new RegExp(`(?<![0-9A-Za-z-])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z-])`).test(text);
}

/** Every JSON log line the app writes while the test runs. */
class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter((l) => l.length > 0));
    done();
  }

  get text(): string {
    return this.lines.join('\n');
  }
}

describe('secrets and card data', () => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    await resetDatabase();
    t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, logDestination: logs, webhookTuning: { retryDelaysMs: [10], repeatDelayMs: 10, timeoutMs: 300 } });
    // Service log lines are buffered until the app listens; the daemon flushes them then, and so does this test.
    t.app.flushLogs();
  });

  afterAll(async () => {
    await t.close();
  });

  it('never reach a log line or a database column, on success and failure paths', async () => {
    const customer = await t.api().post('/api/v1/customers').set('Idempotency-Key', 'secret-create').send({ email: 'secret-test@example.com' }).expect(201);
    const customerAccessToken = customer.body.customerAccessToken as string;
    expect(customerAccessToken.length).toBeGreaterThan(8);
    // A new token, and the hosted form links that carry both, go through the same answers and storage.
    const issued = await t.api().post(`/api/v1/customers/${customer.body.id}/access-token`).set('Idempotency-Key', 'secret-token').send({}).expect(201);
    const renewedToken = issued.body.customerAccessToken as string;
    expect(issued.body.hostedFormUrl).toContain(renewedToken);
    await t.api().post(`/api/v1/customers/${customer.body.id}/access-token`).set('Idempotency-Key', 'secret-token').send({}).expect(201);

    const gateway = t.app.get(ProcessingGateway);
    const resource = await gateway.createPaymentResource({
      paymentTool: { paymentToolType: 'CardData', cardNumber: PAN, expDate: '12/30', cvv: CVV, cardHolder: 'SECRET HOLDER' },
      clientInfo: { fingerprint: 'secret-test' },
    });
    // A refused binding and a refused tokenization make the failure paths log too.
    await t.api().post(`/api/v1/customers/${customer.body.id}/bindings`).send({ paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession }).expect(202);
    await t.api().post(`/api/v1/customers/${customer.body.id}/bindings`).send({ paymentToolToken: `bad-${PAN}`, paymentSession: 'nope' });
    await gateway
      .createPaymentResource({ paymentTool: { paymentToolType: 'CardData', cardNumber: CARDS.badChecksum, expDate: '12/30', cvv: CVV }, clientInfo: { fingerprint: 'x' } })
      .catch(() => undefined);
    await t.api().post('/api/v1/customers').set('Authorization', 'Bearer wrong-token-but-secret').send({}).expect(401);

    // Webhook endpoints: a secret in the create answer, another from a rotation, deliveries that fail and are logged.
    const endpoint = await t.api().post('/api/v1/webhook-endpoints').set('Idempotency-Key', 'secret-endpoint').send({ url: 'http://127.0.0.1:9/hooks?token=abc' }).expect(201);
    const rotated = await t.api().post(`/api/v1/webhook-endpoints/${endpoint.body.id}/rotate-secret`).send({}).expect(200);
    await t.api().patch(`/api/v1/webhook-endpoints/${endpoint.body.id}`).send({ description: 'refuses connections' }).expect(200);
    const plan = await t.api().post('/api/v1/plans').send({ name: 'P', product: 'P', currency: 'RUB', interval: 'month', lines: [{ product: 'x', price: 100 }] }).expect(201);
    await t.api().post('/api/v1/subscriptions').send({ customerId: customer.body.id, planId: plan.body.id }).expect(201);
    const deliveries = t.app.get(WebhookDeliveryService);
    // Each pass retries the refused delivery (due again 10 ms later) until the endpoint is reported as failing.
    await waitFor(
      async () => {
        await deliveries.drain();
        return logs.text.includes('keeps failing');
      },
      (warned) => warned,
      { everyMs: 30, what: 'the failing endpoint reported' },
    );
    // Only the host of a merchant URL is logged: its path or query may carry a token of the merchant's.
    expect(logs.text).not.toContain('token=abc');
    const webhookSecrets = [endpoint.body.secret as string, rotated.body.secret as string].flatMap((secret) => [secret, secret.slice('whsec_'.length)]);

    const secrets = [
      PAN,
      CARDS.badChecksum,
      CVV,
      customerAccessToken,
      renewedToken,
      resource.paymentToolToken,
      resource.paymentSession,
      'sandbox-api-key',
      TEST_ADMIN_TOKEN,
      'wrong-token-but-secret',
      ...webhookSecrets,
    ];
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect({ secret, found: holds(logs.text, secret) }).toEqual({ secret, found: false });
    }

    const db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    try {
      const tables = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
      let dump = '';
      for (const { tablename } of tables.rows) {
        const rows = await db.query(`SELECT row_to_json(t)::text AS j FROM "${tablename}" t`);
        dump += rows.rows.map((r: { j: string }) => r.j).join('\n');
      }
      expect(dump).toContain('secret-test@example.com');
      for (const secret of secrets) {
        expect({ secret, found: holds(dump, secret) }).toEqual({ secret, found: false });
      }
    } finally {
      await db.end();
    }
  });
});
