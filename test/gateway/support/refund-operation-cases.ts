import { externalId, payInvoice } from './operation-cases';
import type { Gateways, OperationCase } from './operation-cases';
import { waitFor } from '../../support/wait';

/** A payment of 1,000 captured, ready to be refunded. */
async function capturedPayment(gw: Gateways): Promise<{ invoiceId: string; paymentId: string }> {
  const { invoice, payment } = await payInvoice(gw);
  await waitFor(() => gw.processing.getPayment(invoice.invoice.id, payment.id), (p) => p.status === 'captured');
  return { invoiceId: invoice.invoice.id, paymentId: payment.id };
}

/** The refund operations, in the shape of the shared contract cases. */
export const REFUND_OPERATION_CASES: OperationCase[] = [
  {
    operation: 'createRefund',
    idempotency: 'create-with-external-id',
    prepare: async (setup) => {
      const { invoiceId, paymentId } = await capturedPayment(setup);
      const extId = externalId('rf');
      return { call: (gw) => gw.processing.createRefund(invoiceId, paymentId, { externalID: extId, amount: 100, currency: 'RUB' }) };
    },
    effects: (ledger) => ledger.refunds.length,
  },
  {
    operation: 'getRefund',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoiceId, paymentId } = await capturedPayment(setup);
      const refund = await setup.processing.createRefund(invoiceId, paymentId, { amount: 100 });
      return { call: (gw) => gw.processing.getRefund(invoiceId, paymentId, refund.id) };
    },
  },
  {
    operation: 'getRefunds',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoiceId, paymentId } = await capturedPayment(setup);
      await setup.processing.createRefund(invoiceId, paymentId, { amount: 100 });
      return { call: (gw) => gw.processing.getRefunds(invoiceId, paymentId) };
    },
  },
  {
    operation: 'getRefundByExternalId',
    idempotency: 'read',
    prepare: async (setup) => {
      const { invoiceId, paymentId } = await capturedPayment(setup);
      const extId = externalId('rf');
      await setup.processing.createRefund(invoiceId, paymentId, { externalID: extId, amount: 100 });
      return { call: (gw) => gw.processing.getRefundByExternalId(extId) };
    },
  },
];
