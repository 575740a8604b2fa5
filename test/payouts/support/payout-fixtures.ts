import type { FaultInput, LedgerWithdrawal } from '../../support/sandbox-control';
import { CARDS } from '../../support/test-cards';
import type { PayoutBatchResponse, PayoutDestinationResponse, PayoutResponse, PayoutSetupResponse } from '../../../src/payouts/payout-responses';
import { PayoutTestApp, runUntil } from './payout-test-app';

/** Four digits, so it cannot be mistaken for the sandbox's short sequential ids in a scan. */
export const TEST_CVV = '9731';
/** The card numbers payout tests send: none may show up in a log line or a stored row. */
export const ALL_TEST_PANS: readonly string[] = [CARDS.success, CARDS.secondSuccess, CARDS.insufficientFunds, CARDS.invalid, CARDS.expired, CARDS.unknownFailure];

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

export async function ledgerWithdrawals(t: PayoutTestApp): Promise<LedgerWithdrawal[]> {
  return (await t.sandboxClient.control.ledger()).withdrawals;
}

export async function addFaults(t: PayoutTestApp, rules: FaultInput[]): Promise<void> {
  for (const rule of rules) await t.sandboxClient.control.addFault(rule);
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
