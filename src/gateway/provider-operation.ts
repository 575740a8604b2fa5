/** Every provider call the gateway makes; also the `operation` label of its metrics and the sandbox's request log. */
export const PROVIDER_OPERATIONS = [
  'createCustomer',
  'getCustomer',
  'createCustomerAccessToken',
  'createBinding',
  'getBinding',
  'getCustomerEvents',
  'createInvoice',
  'getInvoice',
  'getInvoiceEvents',
  'createInvoiceAccessToken',
  'createPayment',
  'getPayment',
  'createPaymentResource',
  'createIdentity',
  'createWallet',
  'getWallet',
  'tokenizeBankCard',
  'createDestination',
  'getDestination',
  'createWithdrawal',
  'getWithdrawal',
  'getWithdrawalEvents',
] as const;

export type ProviderOperation = (typeof PROVIDER_OPERATIONS)[number];
