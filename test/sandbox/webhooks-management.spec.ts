import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import type { Identity, WalletWebhook, Webhook } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { SANDBOX_SUITE_DELAYS, useSandbox } from './support/sandbox-suite';

const INVOICES_SCOPE = { topic: 'InvoicesTopic', shopID: SANDBOX_SHOP_ID, eventTypes: ['InvoiceCreated', 'PaymentCaptured'] };
const CUSTOMERS_SCOPE = { topic: 'CustomersTopic', shopID: SANDBOX_SHOP_ID, eventTypes: ['CustomerReady'] };
const URL = 'https://merchant.example/webhooks/provider';

/** The key as the provider hands it out: standard base64 of a DER SubjectPublicKeyInfo of a 2048-bit RSA key. */
function expectProviderPublicKey(publicKey: string): void {
  expect(publicKey).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  expect(key.asymmetricKeyType).toBe('rsa');
  expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
}

describe('sandbox: webhook management', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started), { shopId: SANDBOX_SHOP_ID });

  function createWebhook(body: unknown, token?: string | null) {
    return sandbox.call<Webhook>('POST', '/v2/processing/webhooks', { body, token });
  }

  describe('processing (/v2/processing/webhooks)', () => {
    it('creates, lists, reads and deletes webhooks; all of the party share one public key', async () => {
      const invoices = await createWebhook({ scope: INVOICES_SCOPE, url: URL });
      expect(invoices.status).toBe(201);
      expect(invoices.data).toEqual({ id: expect.stringMatching(/^\d+$/), active: true, scope: INVOICES_SCOPE, url: URL, publicKey: expect.any(String) });
      expectProviderPublicKey(invoices.data.publicKey);
      const customers = await createWebhook({ scope: CUSTOMERS_SCOPE, url: `${URL}?topic=customers` });
      expect(customers.status).toBe(201);
      expect(customers.data.id).not.toBe(invoices.data.id);
      expect(customers.data.publicKey).toBe(invoices.data.publicKey);

      const list = await sandbox.call<Webhook[]>('GET', '/v2/processing/webhooks');
      expect(list.status).toBe(200);
      expect(list.data).toEqual([invoices.data, customers.data]);
      expect((await sandbox.call('GET', `/v2/processing/webhooks/${invoices.data.id}`)).data).toEqual(invoices.data);

      const removed = await sandbox.call('DELETE', `/v2/processing/webhooks/${invoices.data.id}`);
      expect({ status: removed.status, body: removed.data }).toEqual({ status: 204, body: '' });
      for (const method of ['GET', 'DELETE'] as const) {
        const gone = await sandbox.call(method, `/v2/processing/webhooks/${invoices.data.id}`);
        expect({ status: gone.status, body: gone.data }).toEqual({ status: 404, body: { message: 'Webhook not found' } });
      }
      expect((await sandbox.call('GET', '/v2/processing/webhooks/not-a-number')).status).toBe(404);
      expect((await sandbox.call('GET', '/v2/processing/webhooks')).data).toEqual([customers.data]);
    });

    it.each([
      ['no scope', { url: URL }, 'scope: is required'],
      ['an unknown topic', { scope: { ...INVOICES_SCOPE, topic: 'PayoutsTopic' }, url: URL }, 'scope.topic: must be one of InvoicesTopic, CustomersTopic'],
      ['no shop', { scope: { topic: 'InvoicesTopic', eventTypes: [] }, url: URL }, 'scope.shopID: is required'],
      ['event types that are not a list', { scope: { ...INVOICES_SCOPE, eventTypes: 'InvoiceCreated' }, url: URL }, 'scope.eventTypes: must be an array'],
      ['a customer event on the invoices topic', { scope: { ...INVOICES_SCOPE, eventTypes: ['InvoicePaid', 'CustomerReady'] }, url: URL }, 'scope.eventTypes[1]: must be one of'],
      ['no url', { scope: INVOICES_SCOPE }, 'url: is required'],
      ['a url over 1000 characters', { scope: INVOICES_SCOPE, url: `https://merchant.example/${'a'.repeat(1000)}` }, 'url: must be at most 1000 characters long'],
      ['a url that is not http', { scope: INVOICES_SCOPE, url: 'ftp://merchant.example/hook' }, 'url: must be an http or https URL'],
      ['a relative url', { scope: INVOICES_SCOPE, url: '/webhooks' }, 'url: must be an absolute URL'],
    ])('refuses %s with 400 invalidRequest naming the field', async (_name, body, detail) => {
      const res = await createWebhook(body);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ code: 'invalidRequest', message: expect.stringContaining(`Request parameter: Webhook, error type: schema_violated, description: ${detail}`) });
      expect((await sandbox.call('GET', '/v2/processing/webhooks')).data).toEqual([]);
    });

    it('refuses another shop with invalidShopID', async () => {
      const res = await createWebhook({ scope: { ...INVOICES_SCOPE, shopID: 'shop-of-someone-else' }, url: URL });
      expect({ status: res.status, body: res.data }).toEqual({ status: 400, body: { code: 'invalidShopID', message: 'Shop not found' } });
    });

    it('answers 429 "Webhook limit exceeded" once the party has 20 webhooks, and makes none', async () => {
      for (let i = 0; i < 20; i++) expect((await createWebhook({ scope: INVOICES_SCOPE, url: `${URL}/${i}` })).status).toBe(201);
      const res = await createWebhook({ scope: INVOICES_SCOPE, url: `${URL}/over` });
      expect({ status: res.status, body: res.data }).toEqual({ status: 429, body: { message: 'Webhook limit exceeded' } });
      expect((await sandbox.call<Webhook[]>('GET', '/v2/processing/webhooks')).data).toHaveLength(20);
    });

    it('accepts only the API key, and needs X-Request-ID', async () => {
      const { customerAccessToken } = await sandbox.createCustomer();
      for (const token of [null, 'wrong-key', customerAccessToken.payload]) {
        const res = await createWebhook({ scope: INVOICES_SCOPE, url: URL }, token);
        expect({ status: res.status, body: res.data }).toEqual({ status: 401, body: '' });
        expect((await sandbox.call('GET', '/v2/processing/webhooks', { token })).status).toBe(401);
      }
      const noId = await sandbox.call('GET', '/v2/processing/webhooks', { requestId: null });
      expect(noId.data).toEqual({ code: 'invalidRequest', message: 'Request parameter: X-Request-ID, error type: schema_violated' });
    });
  });

  describe('wallet (/wallet/v0/webhooks)', () => {
    let identity: Identity;
    const WITHDRAWALS_SCOPE = { topic: 'WithdrawalsTopic', eventTypes: ['WithdrawalSucceeded', 'WithdrawalFailed'] };
    const DESTINATIONS_SCOPE = { topic: 'DestinationsTopic', eventTypes: ['DestinationAuthorized'] };

    beforeEach(async () => {
      identity = await sandbox.createIdentity();
    });

    function createWalletWebhook(body: unknown) {
      return sandbox.call<WalletWebhook>('POST', '/wallet/v0/webhooks', { body });
    }

    it('creates, lists, reads and deletes an identity’s webhooks; one key per identity, not the processing key', async () => {
      const wallet = await sandbox.createWallet(identity.id);
      const withdrawals = await createWalletWebhook({ identityID: identity.id, scope: { ...WITHDRAWALS_SCOPE, walletID: wallet.id }, url: URL });
      expect(withdrawals.status).toBe(201);
      expect(withdrawals.data).toEqual({
        id: expect.stringMatching(/^\d+$/),
        identityID: identity.id,
        active: true,
        scope: { ...WITHDRAWALS_SCOPE, walletID: wallet.id },
        url: URL,
        publicKey: expect.any(String),
      });
      expectProviderPublicKey(withdrawals.data.publicKey);
      const destinations = await createWalletWebhook({ identityID: identity.id, scope: DESTINATIONS_SCOPE, url: URL });
      expect(destinations.data.publicKey).toBe(withdrawals.data.publicKey);

      const otherIdentity = await sandbox.createIdentity({ name: 'Other LLC' });
      const foreign = await createWalletWebhook({ identityID: otherIdentity.id, scope: DESTINATIONS_SCOPE, url: URL });
      expect(foreign.data.publicKey).not.toBe(withdrawals.data.publicKey);
      const processing = await createWebhook({ scope: INVOICES_SCOPE, url: URL });
      expect(processing.data.publicKey).not.toBe(withdrawals.data.publicKey);

      const list = await sandbox.call('GET', `/wallet/v0/webhooks?identityID=${identity.id}`);
      expect({ status: list.status, body: list.data }).toEqual({ status: 200, body: [withdrawals.data, destinations.data] });
      expect((await sandbox.call('GET', `/wallet/v0/webhooks/${withdrawals.data.id}?identityID=${identity.id}`)).data).toEqual(withdrawals.data);
      // Another identity's webhook is unknown to this identity.
      const masked = await sandbox.call('GET', `/wallet/v0/webhooks/${foreign.data.id}?identityID=${identity.id}`);
      expect({ status: masked.status, body: masked.data }).toEqual({ status: 404, body: '' });

      const removed = await sandbox.call('DELETE', `/wallet/v0/webhooks/${withdrawals.data.id}?identityID=${identity.id}`);
      expect({ status: removed.status, body: removed.data }).toEqual({ status: 204, body: '' });
      const again = await sandbox.call('DELETE', `/wallet/v0/webhooks/${withdrawals.data.id}?identityID=${identity.id}`);
      expect({ status: again.status, body: again.data }).toEqual({ status: 404, body: '' });
      expect((await sandbox.call('GET', `/wallet/v0/webhooks?identityID=${identity.id}`)).data).toEqual([destinations.data]);
    });

    it('needs identityID on reads and deletes, and an existing identity everywhere', async () => {
      for (const [method, path] of [
        ['GET', '/wallet/v0/webhooks'],
        ['GET', '/wallet/v0/webhooks/1'],
        ['DELETE', '/wallet/v0/webhooks/1'],
      ] as const) {
        const res = await sandbox.call(method, path);
        expect({ path, status: res.status, body: res.data }).toEqual({ path, status: 400, body: { errorType: 'SchemaViolated', name: 'identityID' } });
        const unknown = await sandbox.call(method, `${path}?identityID=999`);
        expect({ path, status: unknown.status, body: unknown.data }).toEqual({ path, status: 422, body: { message: 'No such identity' } });
      }
      const res = await createWalletWebhook({ identityID: '999', scope: DESTINATIONS_SCOPE, url: URL });
      expect({ status: res.status, body: res.data }).toEqual({ status: 422, body: { message: 'No such identity' } });
    });

    it('refuses a wallet of another identity with 422 "No such wallet"', async () => {
      const otherIdentity = await sandbox.createIdentity({ name: 'Other LLC' });
      const foreignWallet = await sandbox.createWallet(otherIdentity.id);
      for (const walletID of [foreignWallet.id, '999']) {
        const res = await createWalletWebhook({ identityID: identity.id, scope: { ...WITHDRAWALS_SCOPE, walletID }, url: URL });
        expect({ status: res.status, body: res.data }).toEqual({ status: 422, body: { message: 'No such wallet' } });
      }
    });

    it.each([
      ['no identity', { identityID: undefined, scope: DESTINATIONS_SCOPE, url: URL }, 'identityID: is required'],
      ['an unknown topic', { scope: { ...DESTINATIONS_SCOPE, topic: 'InvoicesTopic' }, url: URL }, 'scope.topic: must be one of WithdrawalsTopic, DestinationsTopic'],
      ['a withdrawal event on the destinations topic', { scope: { ...DESTINATIONS_SCOPE, eventTypes: ['WithdrawalStarted'] }, url: URL }, 'scope.eventTypes[0]: must be one of'],
      ['a url over 1000 characters', { scope: DESTINATIONS_SCOPE, url: `https://m.example/${'a'.repeat(1000)}` }, 'url: must be at most 1000 characters long'],
    ])('refuses %s with the Wallet API 400 shape', async (_name, body, detail) => {
      const res = await createWalletWebhook({ identityID: identity.id, ...body });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ errorType: 'SchemaViolated', name: 'WebhookParams', description: expect.stringContaining(detail) });
    });

    it('accepts only the API key', async () => {
      const res = await sandbox.call('GET', `/wallet/v0/webhooks?identityID=${identity.id}`, { token: 'wrong-key' });
      expect({ status: res.status, body: res.data }).toEqual({ status: 401, body: '' });
    });
  });

  it('keeps webhooks and their keys across a restart with a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-webhooks-'));
    const stateFile = join(dir, 'state.json');
    try {
      const first = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID, stateFile, delays: SANDBOX_SUITE_DELAYS });
      const created = (await first.call<Webhook>('POST', '/v2/processing/webhooks', { body: { scope: INVOICES_SCOPE, url: URL } })).data;
      const identity = await first.createIdentity();
      const walletHook = (await first.call<WalletWebhook>('POST', '/wallet/v0/webhooks', { body: { identityID: identity.id, scope: { topic: 'DestinationsTopic', eventTypes: ['DestinationCreated'] }, url: URL } })).data;
      await first.close();

      const second = await SandboxClient.start({ shopId: SANDBOX_SHOP_ID, stateFile, delays: SANDBOX_SUITE_DELAYS });
      try {
        expect((await second.call('GET', '/v2/processing/webhooks')).data).toEqual([created]);
        expect((await second.call('GET', `/wallet/v0/webhooks?identityID=${identity.id}`)).data).toEqual([walletHook]);
        // New webhooks keep using the stored keys, and take fresh ids.
        const next = (await second.call<Webhook>('POST', '/v2/processing/webhooks', { body: { scope: CUSTOMERS_SCOPE, url: URL } })).data;
        expect(next.publicKey).toBe(created.publicKey);
        expect(Number(next.id)).toBeGreaterThan(Number(created.id));
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
