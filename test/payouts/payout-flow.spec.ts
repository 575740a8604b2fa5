import { PayoutResponse } from '../../src/payouts/payout-responses';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase } from '../support/test-database';
import { CARDS } from '../support/test-cards';
import { allStoredRows, authorizedDestination, cardDataIn, createDestination, getPayout, ledgerWithdrawals, SETUP_BODY, setUpPayouts, untilAuthorized } from './support/payout-fixtures';
import { PayoutTestApp, runUntil, startPayoutTestApp } from './support/payout-test-app';

describe('Card payouts: the setup order of the spec against the sandbox', () => {
  let t: PayoutTestApp;

  beforeAll(async () => {
    await resetDatabase();
    t = await startPayoutTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const settle = async (id: string): Promise<PayoutResponse> =>
    (
      await runUntil(t, async () => {
        const payout = await getPayout(t, id);
        return payout.status === 'succeeded' || payout.status === 'failed' ? payout : undefined;
      })
    ).value;

  it('creates the identity and the wallet once; a repeat answers the same ids and calls nothing', async () => {
    const before = await t.api().get('/api/v1/payouts/setup');
    expect(before.status).toBe(404);

    const first = await setUpPayouts(t);
    expect(first).toEqual({ identityId: expect.any(String), walletId: expect.any(String), currency: 'RUB', adopted: false });
    const again = await t.api().post('/api/v1/payouts/setup').send(SETUP_BODY);
    expect(again.body).toEqual(first);
    expect((await t.api().get('/api/v1/payouts/setup')).body).toEqual(first);

    expect(await t.sandboxClient.control.requests('createIdentity')).toHaveLength(1);
    expect(await t.sandboxClient.control.requests('createWallet')).toHaveLength(1);
    const [identityCall] = await t.sandboxClient.control.requests('createIdentity');
    expect(identityCall.body).toMatchObject({ name: 'Payouts Ltd', provider: 'test', class: 'company' });
    const [walletCall] = await t.sandboxClient.control.requests('createWallet');
    expect(walletCall.body).toMatchObject({ name: 'Corporate wallet', identity: first.identityId, currency: 'RUB' });
  });

  it('tokenizes the card, creates the destination with the token, follows it until Authorized, and keeps no card data', async () => {
    const setup = (await t.api().get('/api/v1/payouts/setup')).body as { identityId: string };
    const created = await createDestination(t, CARDS.success, 'Ivan');
    expect(created).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      providerDestinationId: expect.any(String),
      status: 'Unauthorized',
      bin: '424242',
      lastDigits: '4242',
      paymentSystem: 'visa',
    });

    const [tokenize] = await t.sandboxClient.control.requests('tokenizeBankCard');
    expect(tokenize.status).toBe(201);
    const [destinationCall] = await t.sandboxClient.control.requests('createDestination');
    expect(destinationCall.body).toMatchObject({
      name: 'Ivan',
      identity: setup.identityId,
      currency: 'RUB',
      resource: { type: 'BankCardDestinationResource', token: expect.any(String) },
      externalID: `d${created.id.replace(/-/g, '')}`,
    });

    const authorized = await untilAuthorized(t, created.id);
    expect(authorized).toMatchObject({ id: created.id, status: 'Authorized', authorizedAt: expect.any(String) });
    expect((await t.sandboxClient.control.requests('getDestination')).length).toBeGreaterThanOrEqual(1);
  });

  it('sends a payout to an Authorized destination and follows the withdrawal until Succeeded', async () => {
    const destination = await authorizedDestination(t, CARDS.secondSuccess, 'Maria');
    const accepted = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 150_00, currency: 'RUB', metadata: { invoice: 'INV-1' } });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      id: expect.any(String),
      destinationId: destination.id,
      amount: 15000,
      currency: 'RUB',
      status: 'pending',
      withdrawalId: null,
      failureCode: null,
      createdAt: expect.any(String),
    });

    const settled = await settle(accepted.body.id);
    expect(settled).toMatchObject({ status: 'succeeded', withdrawalId: expect.any(String), failureCode: null, metadata: { invoice: 'INV-1' } });

    const setup = (await t.api().get('/api/v1/payouts/setup')).body as { walletId: string };
    const ledger = (await ledgerWithdrawals(t)).filter((w) => w.externalID === `w${settled.id.replace(/-/g, '')}`);
    expect(ledger).toEqual([
      expect.objectContaining({
        withdrawalID: settled.withdrawalId,
        walletID: setup.walletId,
        destinationID: destination.providerDestinationId,
        amount: 15000,
        currency: 'RUB',
        status: 'Succeeded',
      }),
    ]);
  });

  it('waits for a destination that is not Authorized yet before creating the withdrawal', async () => {
    const destination = await createDestination(t, CARDS.success, 'Fresh');
    expect(destination.status).toBe('Unauthorized');
    const accepted = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 500, currency: 'RUB' });
    const settled = await settle(accepted.body.id);
    expect(settled.status).toBe('succeeded');
    const withdrawals = await t.sandboxClient.control.requests('createWithdrawal');
    // The provider never saw a withdrawal to this destination while it was Unauthorized.
    expect(withdrawals.filter((r) => (r.body as { destination?: string }).destination === destination.providerDestinationId).every((r) => r.status === 202)).toBe(true);
  });

  it.each([
    [CARDS.insufficientFunds, 'authorization_failed:insufficient_funds'],
    [CARDS.invalid, 'authorization_failed:account_not_found'],
    [CARDS.expired, 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired'],
    [CARDS.unknownFailure, 'authorization_failed:unknown'],
  ])('ends a payout to the failure card %s as failed with the code %s', async (pan, code) => {
    const destination = await authorizedDestination(t, pan);
    const accepted = await t.api().post('/api/v1/payouts').send({ destinationId: destination.id, amount: 1000, currency: 'RUB' });
    const settled = await settle(accepted.body.id);
    expect(settled).toMatchObject({ status: 'failed', failureCode: code, withdrawalId: expect.any(String) });
    const ledger = (await ledgerWithdrawals(t)).filter((w) => w.externalID === `w${settled.id.replace(/-/g, '')}`);
    expect(ledger.map((w) => w.status)).toEqual(['Failed']);
  });

  it('lists payouts newest first, filtered by status', async () => {
    const all = await t.api().get('/api/v1/payouts?limit=2');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(2);
    expect(all.body.nextCursor).toEqual(expect.any(String));
    const next = await t.api().get(`/api/v1/payouts?limit=200&cursor=${all.body.nextCursor}`);
    expect(next.body.items.length).toBeGreaterThan(0);
    const failed = await t.api().get('/api/v1/payouts?status=failed');
    expect(failed.body.items).toHaveLength(4);
    expect(failed.body.items.every((p: PayoutResponse) => p.status === 'failed')).toBe(true);
  });

  it('exposes payouts by outcome and the pending withdrawals in /metrics', async () => {
    const text = (await t.api().get('/metrics')).text;
    expect(text).toMatch(/billing_payouts_total\{outcome="succeeded"\} 2/);
    expect(text).toMatch(/billing_payouts_total\{outcome="failed"\} 4/);
    expect(text).toMatch(/billing_withdrawals_pending 0/);
    expect(text).toMatch(/billing_withdrawal_oldest_pending_age_seconds 0/);
  });

  it('kept no card number or CVV in any database column or log line', async () => {
    expect(t.logs.length).toBeGreaterThan(0);
    expect(cardDataIn(t.logs)).toEqual([]);
    expect(cardDataIn(await allStoredRows(t))).toEqual([]);
  });
});

describe('Card payouts: adopting an existing identity and wallet', () => {
  let t: PayoutTestApp;
  let sandbox: SandboxHandle;
  let identityId: string;
  let walletId: string;

  beforeAll(async () => {
    await resetDatabase();
    sandbox = await startTestSandbox();
    // The merchant's identity and wallet, made at the provider by someone else before the daemon starts.
    const provider = new SandboxClient(sandbox.url);
    identityId = (await provider.createIdentity({ name: 'Merchant', provider: 'test', class: 'company' })).id;
    walletId = (await provider.createWallet(identityId)).id;
    t = await startPayoutTestApp({ sandbox, env: { PAYOUT_IDENTITY_ID: identityId, PAYOUT_WALLET_ID: walletId } });
  });

  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('refuses a currency other than the adopted wallet\'s, storing nothing', async () => {
    const res = await t.api().post('/api/v1/payouts/setup').send({ ...SETUP_BODY, currency: 'USD' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.message)).toContain('currency must be RUB');
    expect((await t.api().get('/api/v1/payouts/setup')).status).toBe(404);
  });

  it('answers the ids from PAYOUT_IDENTITY_ID and PAYOUT_WALLET_ID and creates nothing at the provider', async () => {
    const res = await t.api().post('/api/v1/payouts/setup').send(SETUP_BODY);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ identityId, walletId, currency: 'RUB', adopted: true });
    expect((await t.api().get('/api/v1/payouts/setup')).body).toEqual(res.body);
    expect((await t.sandboxClient.control.requests('createIdentity')).length).toBe(1);
    expect((await t.sandboxClient.control.requests('createWallet')).length).toBe(1);
  });
});
