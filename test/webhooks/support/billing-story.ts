import { CustomerSyncService } from '../../../src/customers/customer-sync.service';
import type { TestApp } from '../../support/test-app';
import { until } from './webhook-fixtures';

/** Drives a billing story through the admin API and the sandbox, the way a merchant and its payers would. */
export class BillingStory {
  constructor(private readonly t: TestApp) {}

  async post<T = Record<string, unknown>>(path: string, body: object, expected = 201): Promise<T> {
    const res = await this.t.api().post(path).send(body);
    if (res.status !== expected) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  async get<T = Record<string, unknown>>(path: string): Promise<T> {
    const res = await this.t.api().get(path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  setClock(now: string): Promise<unknown> {
    return this.post('/api/v1/test-clock', { now }, 200);
  }

  runBilling(): Promise<unknown> {
    return this.post('/api/v1/billing/run', {}, 200);
  }

  createCustomer(): Promise<{ id: string; providerCustomerId: string }> {
    return this.post('/api/v1/customers', { email: `payer-${Math.random().toString(36).slice(2)}@example.com` });
  }

  /** Binds `card` through the merchant-form flow and follows the customer until that binding settled. */
  async bindCard(customerId: string, card: string): Promise<'succeeded' | 'failed'> {
    const { paymentToolToken, paymentSession } = await this.t.sandboxClient.cardForBinding(card);
    const binding = await this.post<{ id: string }>(`/api/v1/customers/${customerId}/bindings`, { paymentToolToken, paymentSession }, 202);
    const sync = this.t.app.get(CustomerSyncService);
    return until(
      async () => {
        await sync.syncDue();
        const { items } = await this.get<{ items: { id: string; status: string }[] }>(`/api/v1/customers/${customerId}/bindings`);
        const status = items.find((b) => b.id === binding.id)?.status;
        if (status !== 'succeeded' && status !== 'failed') return undefined;
        // A success is settled once the customer shows the card.
        if (status === 'succeeded' && (await this.get<{ card: unknown }>(`/api/v1/customers/${customerId}`)).card === null) return undefined;
        return status;
      },
      60_000,
      `binding of customer ${customerId} settled`,
      20,
    );
  }

  /** The sandbox decides the next payments of this customer in this order, whatever the card. */
  scriptOutcomes(providerCustomerId: string, outcomes: string[]): Promise<void> {
    return this.t.sandboxClient.control.scriptOutcomes(providerCustomerId, outcomes);
  }

  async capturedPayments(): Promise<number> {
    return (await this.t.sandboxClient.control.ledger()).payments.filter((p) => p.status === 'captured').length;
  }
}
