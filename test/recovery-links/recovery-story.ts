import request from 'supertest';
import type { Scenario } from '../scenarios/support/scenario';
import { CARDS } from '../support/test-cards';

export const EXPIRED = 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired';
export const NOON_IN_MOSCOW = '2027-03-01T09:00:00.000Z';

export interface ChargeView {
  id: string;
  status: string;
  customerId: string;
  waitingForNewCard?: boolean;
  recoveredBy?: string | null;
  attempts: { status: string; createdAt: string }[];
}

export interface ActionRequired {
  id: string;
  data: { object: ChargeView; recoveryUrl: string | null };
}

/** A subscriber whose card was declined for good: their charge waits for a new card. */
export async function declinedSubscriber(s: Scenario, planName = 'Basic'): Promise<{ customer: { id: string; providerCustomerId: string }; subscriptionId: string; charge: ChargeView }> {
  const plan = await s.post<{ id: string }>('/api/v1/plans', { name: planName, product: planName, currency: 'RUB', interval: 'month', lines: [{ product: planName, price: 99000 }] });
  const customer = await s.createCustomer();
  await s.bindCard(customer.id, CARDS.success);
  await s.scriptOutcomes(customer.providerCustomerId, [EXPIRED]);
  const sub = await s.post<{ id: string }>('/api/v1/subscriptions', { customerId: customer.id, planId: plan.id, timezone: 'Europe/Moscow' });
  await s.runBilling();
  const [charge] = (await s.get<{ items: ChargeView[] }>(`/api/v1/subscriptions/${sub.id}/charges`)).items;
  return { customer, subscriptionId: sub.id, charge };
}

/** The charge.action_required events of one charge, oldest first. */
export async function actionRequiredOf(s: Scenario, chargeId: string): Promise<ActionRequired[]> {
  const page = await s.get<{ items: ActionRequired[] }>('/api/v1/events?type=charge.action_required&limit=100');
  return page.items.filter((e) => e.data.object.id === chargeId).reverse();
}

/** The path of a recovery URL (its origin is PUBLIC_URL or the daemon's configured port, not the test's). */
export const pathOf = (url: string): string => new URL(url).pathname;

/** A request with no credential at all, as a customer's browser sends it. */
export function anonymous(s: Scenario) {
  return request(s.app.getHttpServer());
}
