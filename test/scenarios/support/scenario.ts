import { NestExpressApplication } from '@nestjs/platform-express';
import { BillingTuning } from '../../../src/billing/billing-tuning';
import { SANDBOX_API_KEY } from '../../../src/config/load-config';
import { CustomerSyncService } from '../../../src/customers/customer-sync.service';
import { SandboxHandle } from '../../../src/sandbox/sandbox-server';
import { startTestApp, TestApp } from '../../support/test-app';
import { resetDatabase } from '../../support/test-database';

export const CARDS = {
  success: '4242424242424242',
  insufficientFunds: '4000000000000002',
  expired: '4000000000000069',
} as const;

/** The daemon with the test clock on, a real sandbox, and helpers to drive a billing story. */
export class Scenario {
  private constructor(private readonly t: TestApp) {}

  static async start(env: Record<string, string> = {}, tuning: Partial<BillingTuning> = {}): Promise<Scenario> {
    await resetDatabase();
    return new Scenario(
      await startTestApp({
        env: { TEST_CLOCK: 'true', ...env },
        billingTuning: { paymentPollMs: 3000, ...tuning },
      }),
    );
  }

  get app(): NestExpressApplication {
    return this.t.app;
  }

  get sandbox(): SandboxHandle {
    return this.t.sandbox;
  }

  close(): Promise<void> {
    return this.t.close();
  }

  api() {
    return this.t.api();
  }

  async post<T = Record<string, unknown>>(path: string, body: object, expected = 201): Promise<T> {
    const res = await this.api().post(path).send(body);
    if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  async get<T = Record<string, unknown>>(path: string): Promise<T> {
    const res = await this.api().get(path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  async setClock(now: string): Promise<void> {
    await this.post('/api/v1/test-clock', { now }, 200);
  }

  async runBilling(): Promise<{ due: number; succeeded: number; declined: number; unknown: number; skippedNotReady: number }> {
    return this.post('/api/v1/billing/run', {}, 200);
  }

  async createCustomer(): Promise<{ id: string; providerCustomerId: string }> {
    return this.post('/api/v1/customers', { email: `payer-${Math.random().toString(36).slice(2)}@example.com` });
  }

  /** Binds `card` through the merchant-form flow and follows the customer until the binding settles. */
  async bindCard(customerId: string, card: string): Promise<void> {
    const tokenized = await fetch(`${this.sandbox.url}/v2/processing/payment-resources`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${SANDBOX_API_KEY}`,
        'Content-Type': 'application/json; charset=utf-8',
        'X-Request-ID': Math.random().toString(36).slice(2, 20),
        'Cache-Control': 'no-cache',
      },
      body: JSON.stringify({
        paymentTool: { paymentToolType: 'CardData', cardNumber: card, expDate: '12/30', cvv: '123', cardHolder: 'TEST PAYER' },
        clientInfo: { fingerprint: 'scenario' },
      }),
    });
    if (tokenized.status !== 201) throw new Error(`tokenization answered ${tokenized.status}`);
    const { paymentToolToken, paymentSession } = (await tokenized.json()) as { paymentToolToken: string; paymentSession: string };
    const binding = await this.post<{ id: string }>(`/api/v1/customers/${customerId}/bindings`, { paymentToolToken, paymentSession }, 202);
    const sync = this.app.get(CustomerSyncService);
    for (let i = 0; i < 200; i++) {
      await sync.syncDue();
      const bindings = await this.get<{ items: { id: string; status: string }[] }>(`/api/v1/customers/${customerId}/bindings`);
      const mine = bindings.items.find((b) => b.id === binding.id);
      if (mine && (mine.status === 'succeeded' || mine.status === 'failed')) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`binding of customer ${customerId} did not settle`);
  }

  /** The sandbox decides the next payments of this customer in this order, whatever the card. */
  async scriptOutcomes(providerCustomerId: string, outcomes: string[]): Promise<void> {
    const res = await fetch(`${this.sandbox.url}/sandbox/outcomes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ customerID: providerCustomerId, outcomes }),
    });
    if (res.status >= 300) throw new Error(`scripting outcomes answered ${res.status}`);
  }

  async ledgerPayments(): Promise<{ invoiceID: string; customerID: string; amount: number; status: string; invoiceMetadata: Record<string, string>; externalID?: string }[]> {
    const res = await fetch(`${this.sandbox.url}/sandbox/ledger`);
    return ((await res.json()) as { payments: [] }).payments;
  }

  async sandboxRequests(operation: string): Promise<{ headers: Record<string, string>; body: Record<string, unknown>; path: string }[]> {
    const res = await fetch(`${this.sandbox.url}/sandbox/requests?operation=${operation}&limit=2000`);
    return (await res.json()) as [];
  }
}
