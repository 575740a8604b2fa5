import { randomUUID } from 'node:crypto';
import type { ProcessingGateway } from '../../../src/gateway/processing.gateway';
import type {
  BankCardToken,
  Customer,
  CustomerAndToken,
  CustomerBinding,
  Destination,
  Identity,
  InvoiceAndToken,
  Payment,
  PaymentResourceResult,
  Wallet,
  Withdrawal,
} from '../../../src/gateway/provider-api.types';
import type { ProviderOperation } from '../../../src/gateway/provider-operation';
import type { WalletGateway } from '../../../src/gateway/wallet.gateway';
import type { Ledger } from '../../support/sandbox-control';
import { CARD_EXP_DATE, CARDS } from '../../support/test-cards';
import { waitFor } from '../../support/wait';
import { REFUND_OPERATION_CASES } from './refund-operation-cases';
import { WEBHOOK_OPERATION_CASES } from './webhook-operation-cases';

export const SHOP_ID = 'sandbox-shop';

export interface Gateways {
  processing: ProcessingGateway;
  wallet: WalletGateway;
}

export function externalId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 18)}`;
}

// ---- Builders: each makes one object the way the engine would ----

export function createCustomer(gw: Gateways, extId = externalId('cus')): Promise<CustomerAndToken> {
  return gw.processing.createCustomer({ shopID: SHOP_ID, contactInfo: { email: 'payer@example.com', phoneNumber: '+79991234567' }, metadata: { ref: 'contract' }, externalID: extId });
}

export function createPaymentResource(gw: Gateways, cardNumber: string = CARDS.success): Promise<PaymentResourceResult> {
  return gw.processing.createPaymentResource({
    paymentTool: { paymentToolType: 'CardData', cardNumber, expDate: CARD_EXP_DATE, cvv: '123', cardHolder: 'JOHN DOE' },
    clientInfo: { fingerprint: 'contract-test-fingerprint' },
  });
}

export async function createBinding(gw: Gateways, cardNumber: string = CARDS.success, extId = externalId('bnd')): Promise<{ customer: Customer; binding: CustomerBinding }> {
  const { customer } = await createCustomer(gw);
  const resource = await createPaymentResource(gw, cardNumber);
  const binding = await gw.processing.createBinding(customer.id, {
    paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession },
    externalID: extId,
  });
  return { customer, binding };
}

export async function readyCustomer(gw: Gateways, cardNumber: string = CARDS.success): Promise<Customer> {
  const { customer, binding } = await createBinding(gw, cardNumber);
  await waitFor(() => gw.processing.getBinding(customer.id, binding.id), (b) => b.status === 'succeeded');
  return waitFor(() => gw.processing.getCustomer(customer.id), (c) => c.status === 'ready');
}

/** A due date a day ahead. Repeats of one create must reuse it: the due date is part of what the provider compares. */
export function tomorrow(): string {
  return new Date(Date.now() + 86_400_000).toISOString();
}

export function createInvoice(gw: Gateways, amount = 1_000, extId = externalId('inv'), dueDate = tomorrow()): Promise<InvoiceAndToken> {
  return gw.processing.createInvoice({
    shopID: SHOP_ID,
    dueDate,
    amount,
    currency: 'RUB',
    product: 'Gold plan, monthly',
    metadata: { subscription: 'sub-1' },
    externalID: extId,
  });
}

export async function payInvoice(gw: Gateways, cardNumber: string = CARDS.success, extId = externalId('pay')): Promise<{ invoice: InvoiceAndToken; payment: Payment; customer: Customer }> {
  const customer = await readyCustomer(gw, cardNumber);
  const invoice = await createInvoice(gw);
  const payment = await gw.processing.createPayment(invoice.invoice.id, invoice.invoiceAccessToken.payload, {
    flow: { type: 'PaymentFlowInstant' },
    payer: { payerType: 'CustomerPayer', customerID: customer.id },
    externalID: extId,
  });
  return { invoice, payment, customer };
}

export function createIdentity(gw: Gateways, extId = externalId('idn')): Promise<Identity> {
  return gw.wallet.createIdentity({ name: 'Merchant payouts', provider: 'test', class: 'person', externalID: extId });
}

export async function createWallet(gw: Gateways, extId = externalId('wal')): Promise<Wallet> {
  const identity = await createIdentity(gw);
  return gw.wallet.createWallet({ name: 'Payouts RUB', identity: identity.id, currency: 'RUB', externalID: extId });
}

export function tokenizeCard(gw: Gateways, cardNumber: string = CARDS.success): Promise<BankCardToken> {
  return gw.wallet.tokenizeBankCard({ type: 'BankCard', cardNumber, expDate: CARD_EXP_DATE, cardHolder: 'JOHN DOE', cvv: '123' });
}

export async function createDestination(gw: Gateways, identity: string, cardNumber: string = CARDS.success, extId = externalId('dst')): Promise<Destination> {
  const card = await tokenizeCard(gw, cardNumber);
  return gw.wallet.createDestination({
    name: 'Payee card',
    identity,
    currency: 'RUB',
    resource: { type: 'BankCardDestinationResource', token: card.token },
    metadata: { payee: 'p-1' },
    externalID: extId,
  });
}

export async function authorizedDestination(gw: Gateways, cardNumber: string = CARDS.success): Promise<{ wallet: Wallet; destination: Destination }> {
  const wallet = await createWallet(gw);
  const created = await createDestination(gw, wallet.identity, cardNumber);
  const destination = await waitFor(() => gw.wallet.getDestination(created.id), (d) => d.status === 'Authorized');
  return { wallet, destination };
}

export async function createWithdrawal(gw: Gateways, cardNumber: string = CARDS.success, extId = externalId('wdr')): Promise<Withdrawal> {
  const { wallet, destination } = await authorizedDestination(gw, cardNumber);
  return gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 1_000, currency: 'RUB' }, externalID: extId });
}

// ---- Every operation, prepared and callable through any gateway (e.g. one holding a wrong key) ----

export type Idempotency = 'read' | 'create-with-external-id' | 'create-without-external-id' | 'delete';

export interface Prepared {
  call: (gw: Gateways) => Promise<unknown>;
  /** The Bearer credential the call must carry when it is not the API key (createPayment: the invoice access token). */
  credential?: string;
}

export interface OperationCase {
  operation: ProviderOperation;
  idempotency: Idempotency;
  /** Makes what the call needs with a working gateway; returns the call, to run on whichever gateway the test picks. */
  prepare(gw: Gateways): Promise<Prepared>;
  /** How many money movements the call leaves in the sandbox ledger, when it leaves any. */
  effects?(ledger: Ledger): number;
}

export const OPERATION_CASES: OperationCase[] = [
  {
    operation: 'createCustomer',
    idempotency: 'create-with-external-id',
    prepare: async () => {
      const extId = externalId('cus');
      return { call: (gw) => createCustomer(gw, extId) };
    },
  },
  {
    operation: 'getCustomer',
    idempotency: 'read',
    prepare: async (setup) => {
      const { customer } = await createCustomer(setup);
      return { call: (gw) => gw.processing.getCustomer(customer.id) };
    },
  },
  {
    operation: 'createCustomerAccessToken',
    idempotency: 'create-without-external-id',
    prepare: async (setup) => {
      const { customer } = await createCustomer(setup);
      return { call: (gw) => gw.processing.createCustomerAccessToken(customer.id) };
    },
  },
  {
    operation: 'createBinding',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const { customer } = await createCustomer(setup);
      const resource = await createPaymentResource(setup);
      const extId = externalId('bnd');
      return {
        call: (gw) =>
          gw.processing.createBinding(customer.id, {
            paymentResource: { paymentToolToken: resource.paymentToolToken, paymentSession: resource.paymentSession },
            externalID: extId,
          }),
      };
    },
    effects: (ledger) => ledger.bindingCharges.length,
  },
  {
    operation: 'getBinding',
    idempotency: 'read',
    prepare: async (setup) => {
      const { customer, binding } = await createBinding(setup);
      return { call: (gw) => gw.processing.getBinding(customer.id, binding.id) };
    },
  },
  {
    operation: 'getCustomerEvents',
    idempotency: 'read',
    prepare: async (setup) => {
      const { customer } = await createBinding(setup);
      return { call: (gw) => gw.processing.getCustomerEvents(customer.id, { limit: 10 }) };
    },
  },
  {
    operation: 'createInvoice',
    idempotency: 'create-with-external-id',
    prepare: async () => {
      const extId = externalId('inv');
      const dueDate = tomorrow();
      return { call: (gw) => createInvoice(gw, 1_000, extId, dueDate) };
    },
  },
  {
    operation: 'getInvoice',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoice } = await createInvoice(setup);
      return { call: (gw) => gw.processing.getInvoice(invoice.id) };
    },
  },
  {
    operation: 'getInvoiceByExternalId',
    idempotency: 'read',
    prepare: async (setup) => {
      const extId = externalId('inv');
      await createInvoice(setup, 1_000, extId);
      return { call: (gw) => gw.processing.getInvoiceByExternalId(extId) };
    },
  },
  {
    operation: 'getInvoiceEvents',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoice } = await createInvoice(setup);
      return { call: (gw) => gw.processing.getInvoiceEvents(invoice.id, { limit: 10 }) };
    },
  },
  {
    operation: 'createInvoiceAccessToken',
    idempotency: 'create-without-external-id',
    prepare: async (setup) => {
      const { invoice } = await createInvoice(setup);
      return { call: (gw) => gw.processing.createInvoiceAccessToken(invoice.id) };
    },
  },
  {
    operation: 'createPayment',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const customer = await readyCustomer(setup);
      const invoice = await createInvoice(setup);
      const extId = externalId('pay');
      return {
        call: (gw) =>
          gw.processing.createPayment(invoice.invoice.id, invoice.invoiceAccessToken.payload, {
            flow: { type: 'PaymentFlowInstant' },
            payer: { payerType: 'CustomerPayer', customerID: customer.id },
            externalID: extId,
          }),
        credential: invoice.invoiceAccessToken.payload,
      };
    },
    effects: (ledger) => ledger.payments.length,
  },
  {
    operation: 'getPayment',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoice, payment } = await payInvoice(setup);
      return { call: (gw) => gw.processing.getPayment(invoice.invoice.id, payment.id) };
    },
  },
  {
    operation: 'getPayments',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoice } = await payInvoice(setup);
      return { call: (gw) => gw.processing.getPayments(invoice.invoice.id) };
    },
  },
  {
    operation: 'createPaymentResource',
    idempotency: 'create-without-external-id',
    prepare: async () => ({ call: (gw) => createPaymentResource(gw) }),
  },
  {
    operation: 'createIdentity',
    idempotency: 'create-with-external-id',
    prepare: async () => {
      const extId = externalId('idn');
      return { call: (gw) => createIdentity(gw, extId) };
    },
  },
  {
    operation: 'createWallet',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const identity = await createIdentity(setup);
      const extId = externalId('wal');
      return { call: (gw) => gw.wallet.createWallet({ name: 'Payouts RUB', identity: identity.id, currency: 'RUB', externalID: extId }) };
    },
  },
  {
    operation: 'getWallet',
    idempotency: 'read',
    prepare: async (setup) => {
      const wallet = await createWallet(setup);
      return { call: (gw) => gw.wallet.getWallet(wallet.id) };
    },
  },
  {
    operation: 'tokenizeBankCard',
    idempotency: 'create-without-external-id',
    prepare: async () => ({ call: (gw) => tokenizeCard(gw) }),
  },
  {
    operation: 'createDestination',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const identity = await createIdentity(setup);
      const card = await tokenizeCard(setup);
      const extId = externalId('dst');
      return {
        call: (gw) =>
          gw.wallet.createDestination({
            name: 'Payee card',
            identity: identity.id,
            currency: 'RUB',
            resource: { type: 'BankCardDestinationResource', token: card.token },
            externalID: extId,
          }),
      };
    },
  },
  {
    operation: 'getDestination',
    idempotency: 'read',
    prepare: async (setup) => {
      const identity = await createIdentity(setup);
      const destination = await createDestination(setup, identity.id);
      return { call: (gw) => gw.wallet.getDestination(destination.id) };
    },
  },
  {
    operation: 'createWithdrawal',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const { wallet, destination } = await authorizedDestination(setup);
      const extId = externalId('wdr');
      return { call: (gw) => gw.wallet.createWithdrawal({ wallet: wallet.id, destination: destination.id, body: { amount: 1_000, currency: 'RUB' }, externalID: extId }) };
    },
    effects: (ledger) => ledger.withdrawals.length,
  },
  {
    operation: 'getWithdrawal',
    idempotency: 'read',
    prepare: async (setup) => {
      const withdrawal = await createWithdrawal(setup);
      return { call: (gw) => gw.wallet.getWithdrawal(withdrawal.id) };
    },
  },
  {
    operation: 'getWithdrawalByExternalId',
    idempotency: 'read',
    prepare: async (setup) => {
      const extId = externalId('wdr');
      await createWithdrawal(setup, CARDS.success, extId);
      return { call: (gw) => gw.wallet.getWithdrawalByExternalId(extId) };
    },
  },
  {
    operation: 'getWithdrawalEvents',
    idempotency: 'read',
    prepare: async (setup) => {
      const withdrawal = await createWithdrawal(setup);
      return { call: (gw) => gw.wallet.getWithdrawalEvents(withdrawal.id, { limit: 10 }) };
    },
  },
  ...REFUND_OPERATION_CASES,
  ...WEBHOOK_OPERATION_CASES,
];

export const casesWhere = (idempotency: Idempotency): OperationCase[] => OPERATION_CASES.filter((c) => c.idempotency === idempotency);
