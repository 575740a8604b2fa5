import type { Gateways, OperationCase } from './operation-cases';

export const WEBHOOK_URL = 'https://merchant.example/webhooks/provider';
const SHOP_ID = 'sandbox-shop';

export function createInvoicesWebhook(gw: Gateways, url = WEBHOOK_URL) {
  return gw.processing.createWebhook({ scope: { topic: 'InvoicesTopic', shopID: SHOP_ID, eventTypes: ['PaymentCaptured', 'PaymentFailed'] }, url });
}

export async function identityWithWebhook(gw: Gateways): Promise<{ identityId: string; webhookId: string }> {
  const identity = await gw.wallet.createIdentity({ name: 'Merchant payouts', provider: 'test', class: 'person' });
  const webhook = await gw.wallet.createWalletWebhook({
    identityID: identity.id,
    scope: { topic: 'WithdrawalsTopic', eventTypes: ['WithdrawalSucceeded', 'WithdrawalFailed'] },
    url: WEBHOOK_URL,
  });
  return { identityId: identity.id, webhookId: webhook.id };
}

/** The webhook operations, in the shape of the shared contract cases. A delete answers nothing, so its call names what it deleted. */
export const WEBHOOK_OPERATION_CASES: OperationCase[] = [
  {
    operation: 'listWebhooks',
    idempotency: 'read',
    prepare: async (setup) => {
      await createInvoicesWebhook(setup);
      return { call: (gw) => gw.processing.listWebhooks() };
    },
  },
  {
    operation: 'createWebhook',
    idempotency: 'create-without-external-id',
    prepare: async () => ({ call: (gw) => createInvoicesWebhook(gw) }),
  },
  {
    operation: 'deleteWebhook',
    idempotency: 'delete',
    prepare: async (setup) => {
      const webhook = await createInvoicesWebhook(setup);
      return { call: async (gw) => (await gw.processing.deleteWebhook(webhook.id), { deleted: webhook.id }) };
    },
  },
  {
    operation: 'listWalletWebhooks',
    idempotency: 'read',
    prepare: async (setup) => {
      const { identityId } = await identityWithWebhook(setup);
      return { call: (gw) => gw.wallet.listWalletWebhooks(identityId) };
    },
  },
  {
    operation: 'createWalletWebhook',
    idempotency: 'create-without-external-id',
    prepare: async (setup) => {
      const identity = await setup.wallet.createIdentity({ name: 'Merchant payouts', provider: 'test', class: 'person' });
      return {
        call: (gw) => gw.wallet.createWalletWebhook({ identityID: identity.id, scope: { topic: 'DestinationsTopic', eventTypes: ['DestinationAuthorized'] }, url: WEBHOOK_URL }),
      };
    },
  },
  {
    operation: 'deleteWalletWebhook',
    idempotency: 'delete',
    prepare: async (setup) => {
      const { identityId, webhookId } = await identityWithWebhook(setup);
      return { call: async (gw) => (await gw.wallet.deleteWalletWebhook(identityId, webhookId), { deleted: webhookId }) };
    },
  },
];
