import type { LedgerWithdrawal } from '../../../src/sandbox/services/ledger.service';
import type { LoggedRequest } from '../../../src/sandbox/services/request-log.service';
import type { PayoutBatchResponse, PayoutDestinationResponse, PayoutResponse, PayoutSetupResponse } from '../../../src/payouts/payout-responses';
import { PayoutTestApp, runUntil } from './payout-test-app';

/** Payout test cards of the provider's test bank (the sandbox's card table). */
export const CARDS = {
  success: '4242424242424242',
  success2: '5555555555554444',
  insufficientFunds: '4000000000000002',
  invalidCard: '4222222222222220',
  expiredCard: '4000000000000069',
  unknownFailure: '4111110000000112',
} as const;
/** Four digits, so it cannot be mistaken for the sandbox's short sequential ids in a scan. */
export const TEST_CVV = '9731';
export const ALL_TEST_PANS: readonly string[] = Object.values(CARDS);

/** An expiry two years ahead of the real date, as MM/YY. */
export function futureExpDate(): string {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

export const SETUP_BODY = { identityName: 'Payouts Ltd', provider: 'test', class: 'company', walletName: 'Corporate wallet', currency: 'RUB' };

export async function setUpPayouts(t: PayoutTestApp): Promise<PayoutSetupResponse> {
  const res = await t.api().post('/api/v1/payouts/setup').send(SETUP_BODY);
  if (res.status !== 201) throw new Error(`setup answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as PayoutSetupResponse;
}

export async function createDestination(t: PayoutTestApp, cardNumber: string, name = 'Recipient'): Promise<PayoutDestinationResponse> {
  const res = await t
    .api()
    .post('/api/v1/payouts/destinations')
    .send({ name, currency: 'RUB', card: { cardNumber, expDate: futureExpDate(), cardHolder: 'IVAN PETROV', cvv: TEST_CVV } });
  if (res.status !== 201) throw new Error(`destination answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as PayoutDestinationResponse;
}

/** Runs the daemon's follower until the destination is Authorized. */
export async function untilAuthorized(t: PayoutTestApp, id: string): Promise<PayoutDestinationResponse> {
  const { value } = await runUntil(t, async () => {
    const res = await t.api().get(`/api/v1/payouts/destinations/${id}`);
    return (res.body as PayoutDestinationResponse).status === 'Authorized' ? (res.body as PayoutDestinationResponse) : undefined;
  });
  return value;
}

export async function authorizedDestination(t: PayoutTestApp, cardNumber: string, name?: string): Promise<PayoutDestinationResponse> {
  const created = await createDestination(t, cardNumber, name);
  return untilAuthorized(t, created.id);
}

export async function getPayout(t: PayoutTestApp, id: string): Promise<PayoutResponse> {
  return (await t.api().get(`/api/v1/payouts/${id}`)).body as PayoutResponse;
}

export async function getBatch(t: PayoutTestApp, id: string): Promise<PayoutBatchResponse> {
  return (await t.api().get(`/api/v1/payouts/batches/${id}`)).body as PayoutBatchResponse;
}

async function sandboxCall(t: PayoutTestApp, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${t.sandbox.url}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path} answered ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export async function ledgerWithdrawals(t: PayoutTestApp): Promise<LedgerWithdrawal[]> {
  return ((await sandboxCall(t, 'GET', '/sandbox/ledger')) as { withdrawals: LedgerWithdrawal[] }).withdrawals;
}

export async function providerRequests(t: PayoutTestApp, operation: string): Promise<LoggedRequest[]> {
  return (await sandboxCall(t, 'GET', `/sandbox/requests?operation=${operation}`)) as LoggedRequest[];
}

export interface FaultRuleInput {
  operation: string;
  kind: 'unavailable' | 'timeout_after_effect' | 'reset_after_effect' | 'reset_before_effect' | 'latency';
  probability?: number;
  count?: number;
  latencyMs?: number;
}

export async function addFaults(t: PayoutTestApp, rules: FaultRuleInput[]): Promise<void> {
  for (const rule of rules) await sandboxCall(t, 'POST', '/sandbox/faults', rule);
}

export async function faultHits(t: PayoutTestApp): Promise<{ operation?: string; kind: string; hits: number }[]> {
  return (await sandboxCall(t, 'GET', '/sandbox/faults')) as { operation?: string; kind: string; hits: number }[];
}

export async function clearFaults(t: PayoutTestApp): Promise<void> {
  await sandboxCall(t, 'DELETE', '/sandbox/faults');
}

/** Every row of every table, as JSON text: where card data would show if anything stored it. */
export async function allStoredRows(t: PayoutTestApp): Promise<string[]> {
  const tables: { tablename: string }[] = await t.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  const rows: string[] = [];
  for (const { tablename } of tables) {
    const found: { row: string }[] = await t.dataSource.query(`SELECT row_to_json(t)::text AS row FROM "${tablename}" t`);
    rows.push(...found.map((r) => `${tablename}: ${r.row}`));
  }
  return rows;
}

/** Lines of `texts` that hold one of the test card numbers, or the test CVV as a value of its own. */
export function cardDataIn(texts: readonly string[]): string[] {
  // A value of its own: quoted, or after a cvv key; never a provider id column that happens to hold the digits.
  const cvv = new RegExp(`cvv["'\\s:=]+["']?${TEST_CVV}|(?<!_id":)"${TEST_CVV}"`, 'i');
  return texts.filter((text) => ALL_TEST_PANS.some((pan) => text.includes(pan)) || cvv.test(text));
}
