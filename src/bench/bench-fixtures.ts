import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { SANDBOX_SHOP_ID } from '../config/load-config';
import { ProcessingGateway } from '../gateway/processing.gateway';

export interface ReadyCustomer {
  id: string;
  providerId: string;
}

/** Customers made ready at the sandbox through the real binding flow. */
export async function readyCustomers(gateway: ProcessingGateway, count: number): Promise<ReadyCustomer[]> {
  const out: ReadyCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const { customer } = await gateway.createCustomer({ shopID: SANDBOX_SHOP_ID, contactInfo: { email: `bench${i}@example.com` }, metadata: {} });
    const resource = await gateway.createPaymentResource({
      paymentTool: { paymentToolType: 'CardData', cardNumber: '4242424242424242', expDate: '12/30', cvv: '123', cardHolder: 'BENCH' },
      clientInfo: { fingerprint: 'bench' },
    });
    await gateway.createBinding(customer.id, { paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession } });
    out.push({ id: randomUUID(), providerId: customer.id });
  }
  for (const c of out) {
    for (let tries = 0; (await gateway.getCustomer(c.providerId)).status !== 'ready'; tries++) {
      if (tries > 500) throw new Error('sandbox customer did not become ready');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  return out;
}

export async function insertPlan(db: Client): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO plans (name, product, currency, interval, interval_count, trial_days, lines, amount, shop_id)
     VALUES ('Bench', 'Bench', 'RUB', 'month', 1, 0, $1, 150000, $2) RETURNING id`,
    [JSON.stringify([{ product: 'Seat', price: 50000, quantity: 2, taxRate: '22%' }, { product: 'Support', price: 50000, quantity: 1 }]), SANDBOX_SHOP_ID],
  );
  return rows[0].id;
}

/** Empties the billing tables and puts the ready customers back. */
export async function resetBilling(db: Client, customers: ReadyCustomer[]): Promise<void> {
  await db.query(`TRUNCATE subscriptions, subscription_events, charges, charge_attempts, customers, payouts, payout_batches, payout_destinations, payout_setup`);
  await db.query(
    `INSERT INTO customers (id, provider_customer_id, shop_id, status, ready_at, active_binding_id)
     SELECT id, provider_id, $3, 'ready', now(), 'first-card' FROM unnest($1::uuid[], $2::text[]) AS c(id, provider_id)`,
    [customers.map((c) => c.id), customers.map((c) => c.providerId), SANDBOX_SHOP_ID],
  );
}

/** `count` active monthly subscriptions anchored at `anchor`, spread over the customers, 50,000 rows per statement. */
export async function insertSubscriptions(db: Client, customers: ReadyCustomer[], planId: string, count: number, anchor: Date): Promise<void> {
  const chunk = 50_000;
  for (let offset = 0; offset < count; offset += chunk) {
    const n = Math.min(chunk, count - offset);
    await db.query(
      `INSERT INTO subscriptions (customer_id, plan_id, status, timezone, start_at, billing_anchor, next_billing_at)
       SELECT ($1::uuid[])[1 + (g % $2)], $3, 'active', 'UTC', $4, $4, $4 FROM generate_series(1, $5) g`,
      [customers.map((c) => c.id), customers.length, planId, anchor, n],
    );
  }
}
