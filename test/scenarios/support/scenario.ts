import { NestExpressApplication } from '@nestjs/platform-express';
import { BillingTuning } from '../../../src/billing/billing-tuning';
import { CustomerSyncService } from '../../../src/customers/customer-sync.service';
import { SandboxHandle } from '../../../src/sandbox/sandbox-server';
import type { LedgerPayment, LoggedRequest, ProviderOperation, SandboxControl } from '../../support/sandbox-control';
import { startTestApp, TestApp } from '../../support/test-app';
import { resetDatabase } from '../../support/test-database';
import { waitFor } from '../../support/wait';

/** The daemon with the test clock on, a real sandbox, and helpers to drive a billing story. */
export class Scenario {
  private constructor(private readonly t: TestApp) {}

  /** `databaseUrl`: the run's database another way (through a fault proxy). */
  static async start(env: Record<string, string> = {}, tuning: Partial<BillingTuning> = {}, databaseUrl?: string): Promise<Scenario> {
    await resetDatabase();
    return new Scenario(
      await startTestApp({
        env: { TEST_CLOCK: 'true', ...env },
        billingTuning: { paymentPollMs: 3000, ...tuning },
        databaseUrl,
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

  async runBilling(): Promise<{ due: number; succeeded: number; declined: number; unknown: number; waitingForAllowedHours: number; waitingForAttemptCap: number; skippedNotReady: number }> {
    return this.post('/api/v1/billing/run', {}, 200);
  }

  async createCustomer(): Promise<{ id: string; providerCustomerId: string }> {
    return this.post('/api/v1/customers', { email: `payer-${Math.random().toString(36).slice(2)}@example.com` });
  }

  /** Binds `card` through the merchant-form flow and follows the customer until the binding settles. */
  async bindCard(customerId: string, card: string): Promise<void> {
    const tokenized = await this.t.sandboxClient.cardForBinding(card);
    const binding = await this.post<{ id: string }>(`/api/v1/customers/${customerId}/bindings`, tokenized, 202);
    const sync = this.app.get(CustomerSyncService);
    await waitFor(
      async () => {
        await sync.syncDue();
        const bindings = await this.get<{ items: { id: string; status: string }[] }>(`/api/v1/customers/${customerId}/bindings`);
        return bindings.items.find((b) => b.id === binding.id)?.status;
      },
      (status) => status === 'succeeded' || status === 'failed',
      { timeoutMs: 60_000, everyMs: 20, what: `the binding of customer ${customerId} settled` },
    );
  }

  /** The sandbox decides the next payments of this customer in this order, whatever the card. */
  scriptOutcomes(providerCustomerId: string, outcomes: string[]): Promise<void> {
    return this.t.sandboxClient.control.scriptOutcomes(providerCustomerId, outcomes);
  }

  async ledgerPayments(): Promise<LedgerPayment[]> {
    return (await this.t.sandboxClient.control.ledger()).payments;
  }

  sandboxRequests(operation: ProviderOperation): Promise<LoggedRequest[]> {
    return this.t.sandboxClient.control.requests(operation);
  }

  get sandboxControl(): SandboxControl {
    return this.t.sandboxClient.control;
  }
}
