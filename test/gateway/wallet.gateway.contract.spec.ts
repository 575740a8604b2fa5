import { failureCodePath } from '../../src/gateway/failure-code';
import type { SandboxControl } from '../support/sandbox-control';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { caught, Harness, useGatewaySandbox } from './support/gateway-harness';
import { authorizedDestination, createDestination, createIdentity, createWallet, externalId, tokenizeCard } from './support/operation-cases';

describe('WalletGateway against the sandbox (identities, wallets, cards, payouts)', () => {
  let control: SandboxControl;
  let gw: Harness;
  useGatewaySandbox((started) => ({ control, gw } = started));

  it('creates an identity and a wallet owned by it', async () => {
    const identityExtId = externalId('idn');
    const identity = await createIdentity(gw, identityExtId);
    expect(identity).toMatchObject({ id: expect.any(String), name: 'Merchant payouts', provider: 'test', class: 'person', isBlocked: false, createdAt: expect.any(String) });
    expect(identity.level).toEqual(expect.any(String));

    const wallet = await gw.wallet.createWallet({ name: 'Payouts RUB', identity: identity.id, currency: 'RUB', externalID: externalId('wal') });
    expect(wallet).toMatchObject({ id: expect.any(String), name: 'Payouts RUB', identity: identity.id, currency: 'RUB', isBlocked: false, createdAt: expect.any(String) });
  });

  it('answers a repeated create with the same externalID with the same object', async () => {
    const extId = externalId('idn');
    const first = await createIdentity(gw, extId);
    expect((await createIdentity(gw, extId)).id).toBe(first.id);
  });

  it('tokenizes a card into a token and its public details only', async () => {
    const card = await tokenizeCard(gw, CARDS.success);
    expect(card).toMatchObject({ token: expect.any(String), bin: '424242', lastDigits: '4242', paymentSystem: 'visa' });
    expect(card.token).not.toContain(CARDS.success);
  });

  it('refuses card data the tokenizer cannot accept as business_rule (the Payment Resource API answers 422)', async () => {
    const error = await caught(gw.wallet.tokenizeBankCard({ type: 'BankCard', cardNumber: CARDS.badChecksum, expDate: '12/30', cvv: '123', cardHolder: 'JOHN DOE' }));
    expect([error.kind, error.httpStatus, error.providerMessage]).toEqual(['business_rule', 422, 'Card data is invalid']);
    expect(error.message).not.toContain(CARDS.badChecksum);
  });

  it('creates a destination Unauthorized; it becomes Authorized', async () => {
    const identity = await createIdentity(gw);
    const destination = await createDestination(gw, identity.id);
    expect(destination).toMatchObject({
      id: expect.any(String),
      identity: identity.id,
      currency: 'RUB',
      status: 'Unauthorized',
      resource: { type: 'BankCardDestinationResource' },
      metadata: { payee: 'p-1' },
    });
    const authorized = await waitFor(() => gw.wallet.getDestination(destination.id), (d) => d.status === 'Authorized');
    expect(authorized).toMatchObject({ id: destination.id, isBlocked: false, createdAt: expect.any(String) });
  });

  it('pays out: the withdrawal starts Pending (202), succeeds once, and its events tell it', async () => {
    const { wallet, destination } = await authorizedDestination(gw);
    const extId = externalId('wdr');
    const withdrawal = await gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 2_500, currency: 'RUB' }, externalID: extId });
    expect(withdrawal).toMatchObject({
      id: expect.any(String),
      wallet: wallet.id,
      destination: destination.id,
      body: { amount: 2_500, currency: 'RUB' },
      status: 'Pending',
      createdAt: expect.any(String),
    });
    expect((await control.requests('createWithdrawal')).at(-1)?.status).toBe(202);
    const done = await waitFor(() => gw.wallet.getWithdrawal(withdrawal.id), (w) => w.status !== 'Pending');
    expect(done.status).toBe('Succeeded');

    const events = await gw.wallet.getWithdrawalEvents(withdrawal.id, { limit: 100 });
    expect(events.flatMap((e) => e.changes)).toContainEqual(expect.objectContaining({ type: 'WithdrawalStatusChanged', status: 'Succeeded' }));
    for (const event of events) expect(event).toMatchObject({ eventID: expect.any(Number), occuredAt: expect.any(String) });
    const ledger = await control.ledger();
    expect(ledger.withdrawals).toEqual([expect.objectContaining({ withdrawalID: withdrawal.id, status: 'Succeeded', externalID: extId })]);
  });

  it('pages withdrawal events with eventCursor', async () => {
    const { wallet, destination } = await authorizedDestination(gw);
    const withdrawal = await gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 100, currency: 'RUB' }, externalID: externalId('wdr') });
    await waitFor(() => gw.wallet.getWithdrawal(withdrawal.id), (w) => w.status !== 'Pending');
    const all = await gw.wallet.getWithdrawalEvents(withdrawal.id, { limit: 100 });
    expect(all.length).toBeGreaterThanOrEqual(1);
    expect(await gw.wallet.getWithdrawalEvents(withdrawal.id, { limit: 1 })).toEqual([all[0]]);
    expect(await gw.wallet.getWithdrawalEvents(withdrawal.id, { limit: 100, eventCursor: all[0].eventID })).toEqual(all.slice(1));
  });

  it.each([
    [CARDS.insufficientFunds, 'authorization_failed:insufficient_funds'],
    [CARDS.invalid, 'authorization_failed:account_not_found'],
    [CARDS.expired, 'authorization_failed:payment_tool_rejected:bank_card_rejected:card_expired'],
  ])('reports a failed payout to test card %s with failure %s', async (card, code) => {
    const { wallet, destination } = await authorizedDestination(gw, card);
    const withdrawal = await gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 1_000, currency: 'RUB' }, externalID: externalId('wdr') });
    const done = await waitFor(() => gw.wallet.getWithdrawal(withdrawal.id), (w) => w.status !== 'Pending');
    expect(done.status).toBe('Failed');
    expect(failureCodePath(done.failure)).toBe(code);
  });

  it('reports business refusals (422) as business_rule with the provider message', async () => {
    const noIdentity = await caught(gw.wallet.createWallet({ name: 'x', identity: 'no-such-identity', currency: 'RUB', externalID: externalId('wal') }));
    expect([noIdentity.kind, noIdentity.httpStatus, noIdentity.providerMessage]).toEqual(['business_rule', 422, 'No such identity']);
    expect(noIdentity.isDefinitelyNotApplied).toBe(true);

    const wallet = await createWallet(gw);
    const noDestination = await caught(
      gw.wallet.createWithdrawal({ wallet: wallet.id, destination: 'no-such-destination', body: { amount: 100, currency: 'RUB' }, externalID: externalId('wdr') }),
    );
    expect([noDestination.kind, noDestination.providerMessage]).toEqual(['business_rule', 'No such destination']);
    expect(noDestination.message).toContain('No such destination');
    expect((await control.ledger()).withdrawals).toHaveLength(0);
  });

  it('reports a forged card token as invalid_request with the Wallet API error type', async () => {
    const identity = await createIdentity(gw);
    const error = await caught(
      gw.wallet.createDestination({ name: 'x', identity: identity.id, currency: 'RUB', resource: { type: 'BankCardDestinationResource', token: 'forged' }, externalID: externalId('dst') }),
    );
    expect([error.kind, error.httpStatus, error.code]).toEqual(['invalid_request', 400, 'InvalidResourceToken']);
    expect(error.providerMessage).toEqual(expect.any(String));
  });

  it('reports a schema violation on the Wallet API as invalid_request naming the parameter', async () => {
    const error = await caught(gw.wallet.createIdentity({ name: '', provider: 'test', class: 'person', externalID: externalId('idn') }));
    expect([error.kind, error.httpStatus]).toEqual(['invalid_request', 400]);
    expect(error.code).toEqual(expect.any(String));
  });

  it('reports unknown destinations and withdrawals as not_found (the Wallet API sends no body)', async () => {
    const destination = await caught(gw.wallet.getDestination('no-such-destination'));
    expect([destination.kind, destination.httpStatus, destination.providerMessage]).toEqual(['not_found', 404, undefined]);
    expect((await caught(gw.wallet.getWithdrawal('no-such-withdrawal'))).kind).toBe('not_found');
    expect((await caught(gw.wallet.getWithdrawalEvents('no-such-withdrawal', { limit: 10 }))).kind).toBe('not_found');
  });

  it('reports a withdrawal externalID reused with another amount as conflict, and pays once', async () => {
    const { wallet, destination } = await authorizedDestination(gw);
    const extId = externalId('wdr');
    const first = await gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 1_000, currency: 'RUB' }, externalID: extId });
    const error = await caught(gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 9_000, currency: 'RUB' }, externalID: extId }));
    expect(error).toMatchObject({ kind: 'conflict', httpStatus: 409, externalID: extId, conflictingId: first.id });
    expect((await control.ledger()).withdrawals).toHaveLength(1);
  });
});
