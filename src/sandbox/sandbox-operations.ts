/** Which error dialect an operation speaks: CAPI (/v1, /v2 processing) or the Wallet API (/wallet, /payres). */
type ProviderApi = 'capi' | 'wallet';

interface OperationSpec {
  api: ProviderApi;
  /** Name of the body parameter in the provider's schema; it appears in validation errors. */
  bodyName?: string;
}

/**
 * Every provider operation the sandbox serves. The names are the keys fault rules and the request log use.
 * Operations beyond the spec's fourteen (reads, token renewal) exist because the real API has them.
 */
const PROVIDER_OPERATIONS = {
  createCustomer: { api: 'capi', bodyName: 'CustomerParams' },
  getCustomer: { api: 'capi' },
  createCustomerAccessToken: { api: 'capi' },
  createBinding: { api: 'capi', bodyName: 'CustomerBindingParams' },
  getBindings: { api: 'capi' },
  getBinding: { api: 'capi' },
  getCustomerEvents: { api: 'capi' },
  createInvoice: { api: 'capi', bodyName: 'InvoiceParams' },
  getInvoice: { api: 'capi' },
  getInvoiceByExternalId: { api: 'capi' },
  getInvoiceEvents: { api: 'capi' },
  createInvoiceAccessToken: { api: 'capi' },
  createPayment: { api: 'capi', bodyName: 'PaymentParams' },
  getPayments: { api: 'capi' },
  getPayment: { api: 'capi' },
  createRefund: { api: 'capi', bodyName: 'RefundParams' },
  getRefunds: { api: 'capi' },
  getRefund: { api: 'capi' },
  getRefundByExternalId: { api: 'capi' },
  createPaymentResource: { api: 'capi', bodyName: 'PaymentResourceParams' },
  createIdentity: { api: 'wallet', bodyName: 'Identity' },
  getIdentity: { api: 'wallet' },
  createWallet: { api: 'wallet', bodyName: 'Wallet' },
  getWallet: { api: 'wallet' },
  tokenizeBankCard: { api: 'wallet', bodyName: 'BankCard' },
  createDestination: { api: 'wallet', bodyName: 'Destination' },
  getDestination: { api: 'wallet' },
  createWithdrawal: { api: 'wallet', bodyName: 'WithdrawalParameters' },
  getWithdrawal: { api: 'wallet' },
  getWithdrawalByExternalId: { api: 'wallet' },
  getWithdrawalEvents: { api: 'wallet' },
  listWebhooks: { api: 'capi' },
  createWebhook: { api: 'capi', bodyName: 'Webhook' },
  getWebhook: { api: 'capi' },
  deleteWebhook: { api: 'capi' },
  listWalletWebhooks: { api: 'wallet' },
  createWalletWebhook: { api: 'wallet', bodyName: 'WebhookParams' },
  getWalletWebhook: { api: 'wallet' },
  deleteWalletWebhook: { api: 'wallet' },
} as const satisfies Record<string, OperationSpec>;

export type ProviderOperation = keyof typeof PROVIDER_OPERATIONS;

export function isProviderOperation(name: string): name is ProviderOperation {
  return Object.prototype.hasOwnProperty.call(PROVIDER_OPERATIONS, name);
}

export function operationSpec(operation: ProviderOperation): OperationSpec {
  return PROVIDER_OPERATIONS[operation];
}
