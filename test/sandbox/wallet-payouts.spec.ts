import type { Destination, Identity, Wallet, Withdrawal, WithdrawalEvent } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARD_EXP_DATE, CARDS } from '../support/test-cards';
import { useSandbox } from './support/sandbox-suite';

describe('sandbox: wallet API payouts', () => {
  let sandbox: SandboxClient;
  let identity: Identity;
  let wallet: Wallet;
  useSandbox((started) => (sandbox = started));
  beforeEach(async () => {
    identity = await sandbox.createIdentity();
    wallet = await sandbox.createWallet(identity.id);
  });

  function withdraw(destinationID: string, body: Record<string, unknown> = {}) {
    return sandbox.call<Withdrawal>('POST', '/wallet/v0/withdrawals', {
      body: { wallet: wallet.id, destination: destinationID, body: { amount: 50_000, currency: 'RUB' }, ...body },
    });
  }

  describe('identity and wallet', () => {
    it('creates an anonymous, unblocked identity with a decimal id and a fractional-second timestamp', async () => {
      expect(identity).toEqual({
        id: '1',
        name: 'Acme LLC',
        provider: 'test',
        class: 'person',
        level: 'anonymous',
        isBlocked: false,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/),
      });
      expect((await sandbox.call('GET', `/wallet/v0/identities/${identity.id}`)).data).toEqual(identity);
      expect(wallet).toEqual({ id: '1', name: 'Corporate', identity: '1', currency: 'RUB', isBlocked: false, createdAt: expect.any(String) });
    });

    it('rejects a body without a required field with the Wallet API 400 shape', async () => {
      const res = await sandbox.call('POST', '/wallet/v0/identities', { body: { name: 'x', provider: 'test' } });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ errorType: 'SchemaViolated', name: 'Identity', description: 'class: is required' });
    });

    it('refuses a wallet of an unknown identity with 422 "No such identity"', async () => {
      const res = await sandbox.call('POST', '/wallet/v0/wallets', { body: { name: 'w', identity: '999', currency: 'RUB' } });
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ message: 'No such identity' });
    });

    it('rejects a malformed currency', async () => {
      const res = await sandbox.call('POST', '/wallet/v0/wallets', { body: { name: 'w', identity: identity.id, currency: 'rub' } });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ errorType: 'SchemaViolated', name: 'Wallet' });
    });

    it('answers unknown wallet objects with 404 and an empty body', async () => {
      for (const path of ['/wallet/v0/identities/77', '/wallet/v0/wallets/77', '/wallet/v0/destinations/77', '/wallet/v0/withdrawals/77', '/wallet/v0/withdrawals/77/events?limit=5']) {
        const res = await sandbox.call('GET', path);
        expect({ path, status: res.status, body: res.data }).toEqual({ path, status: 404, body: '' });
      }
    });
  });

  describe('card tokenization (payres)', () => {
    it('answers a token that does not contain the card number, with bin, last digits and network', async () => {
      const res = await sandbox.call<Record<string, string>>('POST', '/payres/v0/bank-cards', {
        body: { type: 'BankCard', cardNumber: CARDS.secondSuccess, expDate: CARD_EXP_DATE, cardHolder: 'JANE ROE', cvv: '123' },
      });
      expect(res.status).toBe(201);
      expect(res.data).toEqual({
        token: expect.any(String),
        authData: expect.any(String),
        bin: '555555',
        lastDigits: '4444',
        paymentSystem: 'mastercard',
        validUntil: expect.any(String),
      });
      expect(JSON.stringify(res.data)).not.toContain(CARDS.secondSuccess);
      expect(Date.parse(res.data.validUntil) - Date.now()).toBeGreaterThan(63 * 60 * 1000);
    });

    it('gives no authData when no CVV was sent', async () => {
      const res = await sandbox.call<Record<string, string>>('POST', '/payres/v0/bank-cards', { body: { cardNumber: CARDS.success, expDate: CARD_EXP_DATE } });
      expect(res.status).toBe(201);
      expect(res.data.authData).toBeUndefined();
    });

    it.each([
      [{ cardNumber: CARDS.badChecksum, expDate: CARD_EXP_DATE }, 'Card data is invalid'],
      [{ cardNumber: CARDS.success, expDate: '01/20' }, 'Card data is invalid'],
      [{ cardNumber: CARDS.unknownNetwork, expDate: CARD_EXP_DATE }, 'Unsupported card'],
    ])('refuses %j with 422 %s', async (body, message) => {
      const res = await sandbox.call('POST', '/payres/v0/bank-cards', { body });
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ message });
    });

    it.each([
      [{ cardNumber: '4242-4242-4242-4242' }, 'cardNumber: must match'],
      [{ cardNumber: CARDS.success, cvv: '12' }, 'cvv: must match'],
      [{ cardNumber: CARDS.success, expDate: '2030-01' }, 'expDate: must match'],
      [{ expDate: CARD_EXP_DATE }, 'cardNumber: is required'],
    ])('rejects the malformed card %j with 400 SchemaViolated', async (body, detail) => {
      const res = await sandbox.call<{ description: string }>('POST', '/payres/v0/bank-cards', { body });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ errorType: 'SchemaViolated', name: 'BankCard' });
      expect(res.data.description).toContain(detail);
    });
  });

  describe('destinations', () => {
    it('creates an Unauthorized destination that becomes Authorized, with a storage token of another form', async () => {
      const payresToken = await sandbox.cardToken(CARDS.success);
      const res = await sandbox.call<Destination>('POST', '/wallet/v0/destinations', {
        body: { name: 'Payee', identity: identity.id, currency: 'RUB', resource: { type: 'BankCardDestinationResource', token: payresToken }, metadata: { payee: 'p-1' } },
      });
      expect(res.status).toBe(201);
      expect(res.data).toEqual({
        id: '1',
        name: 'Payee',
        identity: identity.id,
        currency: 'RUB',
        resource: { type: 'BankCardDestinationResource', token: expect.any(String), bin: '424242', lastDigits: '4242', paymentSystem: 'visa' },
        metadata: { payee: 'p-1' },
        status: 'Unauthorized',
        isBlocked: false,
        createdAt: expect.any(String),
      });
      expect(res.data.resource.token).not.toBe(payresToken);
      const authorized = await sandbox.authorizedDestination(identity.id, CARDS.success);
      expect(authorized.status).toBe('Authorized');
      const first = await sandbox.call<Destination>('GET', `/wallet/v0/destinations/${res.data.id}`);
      expect(first.data.status).toBe('Authorized');
    });

    it('refuses an unknown card token with 400 InvalidResourceToken', async () => {
      const res = await sandbox.call('POST', '/wallet/v0/destinations', {
        body: { name: 'Payee', identity: identity.id, currency: 'RUB', resource: { type: 'BankCardDestinationResource', token: 'forged' } },
      });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ errorType: 'InvalidResourceToken', name: 'resource', description: 'Specified resource token is invalid' });
    });

    it('refuses a destination of an unknown identity with 422', async () => {
      const token = await sandbox.cardToken(CARDS.success);
      const res = await sandbox.call('POST', '/wallet/v0/destinations', {
        body: { name: 'Payee', identity: '404', currency: 'RUB', resource: { type: 'BankCardDestinationResource', token } },
      });
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ message: 'No such identity' });
    });
  });

  describe('withdrawals', () => {
    it('accepts a withdrawal as Pending (202), then it succeeds, with status events', async () => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const res = await withdraw(destination.id, { externalID: 'payout-1' });
      expect(res.status).toBe(202);
      expect(res.data).toEqual({
        id: '1',
        wallet: wallet.id,
        destination: destination.id,
        body: { amount: 50_000, currency: 'RUB' },
        createdAt: expect.any(String),
        externalID: 'payout-1',
        status: 'Pending',
      });
      const final = await sandbox.finalWithdrawal(res.data.id);
      expect(final.status).toBe('Succeeded');
      expect(final.failure).toBeUndefined();

      const events = await sandbox.call<WithdrawalEvent[]>('GET', `/wallet/v0/withdrawals/${res.data.id}/events?limit=10`);
      expect(events.data).toEqual([
        { eventID: 1, occuredAt: expect.any(String), changes: [{ type: 'WithdrawalStatusChanged', status: 'Pending' }] },
        { eventID: 2, occuredAt: expect.any(String), changes: [{ type: 'WithdrawalStatusChanged', status: 'Succeeded' }] },
      ]);
      const after = await sandbox.call<WithdrawalEvent[]>('GET', `/wallet/v0/withdrawals/${res.data.id}/events?limit=10&eventCursor=1`);
      expect(after.data.map((e) => e.eventID)).toEqual([2]);
      const one = await sandbox.call<WithdrawalEvent[]>('GET', `/wallet/v0/withdrawals/${res.data.id}/events?limit=1`);
      expect(one.data.map((e) => e.eventID)).toEqual([1]);

      expect((await sandbox.control.ledger()).withdrawals).toEqual([
        { withdrawalID: '1', walletID: wallet.id, destinationID: destination.id, amount: 50_000, currency: 'RUB', status: 'Succeeded', externalID: 'payout-1', createdAt: res.data.createdAt },
      ]);
    });

    it.each([['limit=0'], ['limit=1001'], ['']])('rejects the event query "%s" with a Wallet API 400', async (query) => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const created = await withdraw(destination.id);
      const res = await sandbox.call<{ errorType: string; name: string }>('GET', `/wallet/v0/withdrawals/${created.data.id}/events?${query}`);
      expect(res.status).toBe(400);
      expect(res.data.name).toBe('limit');
      expect(['NotInRange', 'SchemaViolated']).toContain(res.data.errorType);
    });

    it('refuses a withdrawal to a destination that is not yet authorized', async () => {
      await sandbox.control.setDelays({ authorizeDestinationMs: 10_000 });
      try {
        const destination = await sandbox.createDestination(identity.id, CARDS.success);
        const res = await withdraw(destination.id);
        expect(res.status).toBe(422);
        expect(res.data).toEqual({ message: 'Destination unauthorized' });
        expect((await sandbox.control.ledger()).withdrawals).toEqual([]);
      } finally {
        await sandbox.control.setDelays({ authorizeDestinationMs: 20 });
      }
    });

    it.each([
      ['an unknown wallet', { wallet: '999' }, 'No such wallet'],
      ['an unknown destination', { destination: '999' }, 'No such destination'],
      ['a body currency other than the wallet and destination currency', { body: { amount: 100, currency: 'USD' } }, 'Invalid currency'],
    ])('refuses %s with 422', async (_label, override, message) => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const res = await withdraw(destination.id, override);
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ message });
    });

    it('refuses a withdrawal to a destination in another currency', async () => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success, 'USD');
      const res = await withdraw(destination.id);
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ message: 'Invalid currency' });
    });

    it.each([[{ amount: 0, currency: 'RUB' }], [{ amount: 1.5, currency: 'RUB' }], [{ amount: 100 }]])('rejects the body %j with 400', async (body) => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const res = await withdraw(destination.id, { body });
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ errorType: 'SchemaViolated', name: 'WithdrawalParameters' });
    });

    const PAYOUT_FAILURES: [string, object][] = [
      ['4000000000000002', { code: 'authorization_failed', subError: { code: 'insufficient_funds' } }],
      ['5100000000000412', { code: 'authorization_failed', subError: { code: 'insufficient_funds' } }],
      ['4222222222222220', { code: 'authorization_failed', subError: { code: 'account_not_found' } }],
      ['5100000000000511', { code: 'authorization_failed', subError: { code: 'account_not_found' } }],
      ['4000000000000069', { code: 'authorization_failed', subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } } }],
      ['5105105105105100', { code: 'authorization_failed', subError: { code: 'payment_tool_rejected', subError: { code: 'bank_card_rejected', subError: { code: 'card_expired' } } } }],
      ['4111110000000112', { code: 'authorization_failed', subError: { code: 'unknown' } }],
      ['5124990000000002', { code: 'authorization_failed', subError: { code: 'unknown' } }],
    ];
    it.each(PAYOUT_FAILURES)('fails a payout to %s with its failure tree', async (pan, failure) => {
      const destination = await sandbox.authorizedDestination(identity.id, pan);
      const res = await withdraw(destination.id);
      const final = await sandbox.finalWithdrawal(res.data.id);
      expect(final.status).toBe('Failed');
      expect(final.failure).toEqual(failure);
      const events = await sandbox.call<WithdrawalEvent[]>('GET', `/wallet/v0/withdrawals/${res.data.id}/events?limit=10`);
      expect(events.data.at(-1)?.changes).toEqual([{ type: 'WithdrawalStatusChanged', status: 'Failed', failure }]);
      expect((await sandbox.control.ledger()).withdrawals).toEqual([expect.objectContaining({ withdrawalID: res.data.id, status: 'Failed', failure })]);
    });

    it.each([['4242424242424242'], ['5555555555554444'], ['4003830171874018'], ['4987654321098769'], ['4111111111111111'], ['2201382000000013']])(
      'pays out to %s (every card outside the four failure groups succeeds)',
      async (pan) => {
        const destination = await sandbox.authorizedDestination(identity.id, pan);
        const res = await withdraw(destination.id);
        expect((await sandbox.finalWithdrawal(res.data.id)).status).toBe('Succeeded');
      },
    );

    it('returns the existing withdrawal for a repeat of the whole body and 409 for any difference', async () => {
      const destination = await sandbox.authorizedDestination(identity.id, CARDS.success);
      const first = await withdraw(destination.id, { externalID: 'payout-2', metadata: { batch: 'b1' } });
      await sandbox.finalWithdrawal(first.data.id);
      const again = await withdraw(destination.id, { externalID: 'payout-2', metadata: { batch: 'b1' } });
      expect(again.status).toBe(202);
      expect(again.data).toMatchObject({ id: first.data.id, status: 'Succeeded' });
      // The Wallet API hashes the whole body: even metadata counts.
      const conflict = await withdraw(destination.id, { externalID: 'payout-2', metadata: { batch: 'b2' } });
      expect(conflict.status).toBe(409);
      expect(conflict.data).toEqual({ externalID: 'payout-2', id: first.data.id, message: "This 'externalID' has been used by another request" });
      expect((await sandbox.control.ledger()).withdrawals).toHaveLength(1);
    });

    it('de-duplicates identities, wallets and destinations by externalID too', async () => {
      const a = await sandbox.createIdentity({ externalID: 'id-1' });
      const b = await sandbox.createIdentity({ externalID: 'id-1' });
      expect(b.id).toBe(a.id);
      const conflict = await sandbox.call('POST', '/wallet/v0/identities', { body: { name: 'Other', provider: 'test', class: 'person', externalID: 'id-1' } });
      expect(conflict.status).toBe(409);
      expect(conflict.data).toMatchObject({ externalID: 'id-1', id: a.id });

      const token = await sandbox.cardToken(CARDS.success);
      const body = { name: 'Payee', identity: identity.id, currency: 'RUB', resource: { type: 'BankCardDestinationResource', token }, externalID: 'dest-1' };
      const d1 = await sandbox.call<Destination>('POST', '/wallet/v0/destinations', { body });
      const d2 = await sandbox.call<Destination>('POST', '/wallet/v0/destinations', { body });
      expect(d2.status).toBe(201);
      expect(d2.data.id).toBe(d1.data.id);
    });
  });
});
