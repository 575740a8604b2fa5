import type { SandboxControl } from '../support/sandbox-control';
import { caught, Harness, useGatewaySandbox } from './support/gateway-harness';
import { createIdentity, createWallet, SHOP_ID } from './support/operation-cases';
import { createInvoicesWebhook, identityWithWebhook, WEBHOOK_URL } from './support/webhook-operation-cases';

describe('Webhook management through the gateways, against the sandbox over HTTP', () => {
  let control: SandboxControl;
  let gw: Harness;
  // Generous: the sandbox's first registration may wait for a key pair on a busy machine; timeouts are not under test here.
  useGatewaySandbox((started) => ({ control, gw } = started), { timeoutMs: 5_000 });

  describe('processing', () => {
    it('creates, lists and deletes webhooks; the answer carries the key that signs deliveries', async () => {
      const invoices = await createInvoicesWebhook(gw);
      expect(invoices).toEqual({
        id: expect.stringMatching(/^\d+$/),
        active: true,
        scope: { topic: 'InvoicesTopic', shopID: SHOP_ID, eventTypes: ['PaymentCaptured', 'PaymentFailed'] },
        url: WEBHOOK_URL,
        publicKey: expect.stringMatching(/^[A-Za-z0-9+/]{300,}={0,2}$/),
      });
      const customers = await gw.processing.createWebhook({ scope: { topic: 'CustomersTopic', shopID: SHOP_ID, eventTypes: ['CustomerReady'] }, url: WEBHOOK_URL });
      expect(await gw.processing.listWebhooks()).toEqual([invoices, customers]);

      await expect(gw.processing.deleteWebhook(invoices.id)).resolves.toBeUndefined();
      expect(await gw.processing.listWebhooks()).toEqual([customers]);
      const error = await caught(gw.processing.deleteWebhook(invoices.id));
      expect([error.kind, error.httpStatus, error.operation]).toEqual(['not_found', 404, 'deleteWebhook']);
    });

    it('a delete whose answer was lost is repeated, and the 404 of the repeat counts as deleted', async () => {
      const webhook = await createInvoicesWebhook(gw);
      await control.addFault({ operation: 'deleteWebhook', kind: 'timeout_after_effect', count: 1 });
      await expect(gw.processing.deleteWebhook(webhook.id)).resolves.toBeUndefined();
      expect((await control.requests('deleteWebhook')).map((r) => r.status)).toEqual([504, 404]);
      expect(await gw.processing.listWebhooks()).toEqual([]);
    });

    it('a 404 after a request that was never executed is still not_found (the id was wrong)', async () => {
      await control.addFault({ operation: 'deleteWebhook', kind: 'unavailable', count: 1 });
      const error = await caught(gw.processing.deleteWebhook('424242'));
      expect([error.kind, error.httpStatus, error.attempts]).toEqual(['not_found', 404, 2]);
    });

    it('reports refusals in the gateway error kinds: 400 invalid_request with its code, 429 transient and not applied', async () => {
      const invalid = await caught(gw.processing.createWebhook({ scope: { topic: 'InvoicesTopic', shopID: 'another-shop', eventTypes: ['InvoicePaid'] }, url: WEBHOOK_URL }));
      expect([invalid.kind, invalid.code, invalid.providerMessage]).toEqual(['invalid_request', 'invalidShopID', 'Shop not found']);
      for (let i = 0; i < 20; i++) await createInvoicesWebhook(gw, `${WEBHOOK_URL}/${i}`);
      const limited = await caught(createInvoicesWebhook(gw));
      expect([limited.httpStatus, limited.providerMessage, limited.isTransient, limited.isDefinitelyNotApplied, limited.attempts]).toEqual([
        429,
        'Webhook limit exceeded',
        true,
        true,
        1,
      ]);
    });

    it('a create is not repeated after a lost answer (no externalID): the caller lists to find out', async () => {
      await control.addFault({ operation: 'createWebhook', kind: 'reset_after_effect', count: 1 });
      const error = await caught(createInvoicesWebhook(gw));
      expect([error.kind, error.attempts]).toEqual(['unknown_outcome', 1]);
      expect(await gw.processing.listWebhooks()).toHaveLength(1);
    });
  });

  describe('wallet', () => {
    it('creates, lists and deletes an identity’s webhooks', async () => {
      const wallet = await createWallet(gw);
      const webhook = await gw.wallet.createWalletWebhook({
        identityID: wallet.identity,
        scope: { topic: 'WithdrawalsTopic', walletID: wallet.id, eventTypes: ['WithdrawalSucceeded'] },
        url: WEBHOOK_URL,
      });
      expect(webhook).toEqual({
        id: expect.stringMatching(/^\d+$/),
        identityID: wallet.identity,
        active: true,
        scope: { topic: 'WithdrawalsTopic', walletID: wallet.id, eventTypes: ['WithdrawalSucceeded'] },
        url: WEBHOOK_URL,
        publicKey: expect.any(String),
      });
      expect(await gw.wallet.listWalletWebhooks(wallet.identity)).toEqual([webhook]);
      await gw.wallet.deleteWalletWebhook(wallet.identity, webhook.id);
      expect(await gw.wallet.listWalletWebhooks(wallet.identity)).toEqual([]);
      const gone = await caught(gw.wallet.deleteWalletWebhook(wallet.identity, webhook.id));
      expect([gone.kind, gone.httpStatus]).toEqual(['not_found', 404]);
    });

    it('a delete whose answer was lost counts as done when the repeat finds it gone', async () => {
      const { identityId, webhookId } = await identityWithWebhook(gw);
      await control.addFault({ operation: 'deleteWalletWebhook', kind: 'reset_after_effect', count: 1 });
      await expect(gw.wallet.deleteWalletWebhook(identityId, webhookId)).resolves.toBeUndefined();
      expect(await gw.wallet.listWalletWebhooks(identityId)).toEqual([]);
    });

    it('an unknown identity or wallet is a business_rule refusal (422)', async () => {
      const identity = await createIdentity(gw);
      const unknownIdentity = await caught(gw.wallet.listWalletWebhooks('999'));
      expect([unknownIdentity.kind, unknownIdentity.providerMessage]).toEqual(['business_rule', 'No such identity']);
      const unknownWallet = await caught(
        gw.wallet.createWalletWebhook({ identityID: identity.id, scope: { topic: 'WithdrawalsTopic', walletID: '999', eventTypes: ['WithdrawalFailed'] }, url: WEBHOOK_URL }),
      );
      expect([unknownWallet.kind, unknownWallet.providerMessage]).toEqual(['business_rule', 'No such wallet']);
    });
  });
});
