import { Injectable } from '@nestjs/common';
import type { PaymentStatus, RefundError, RefundStatus, WithdrawalFailure, WithdrawalStatus } from '../../gateway/provider-api.types';
import { SandboxStateService } from '../state/sandbox-state.service';

export interface LedgerPayment {
  invoiceID: string;
  paymentID: string;
  customerID: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  externalID?: string;
  invoiceExternalID?: string;
  invoiceMetadata: Record<string, unknown>;
  createdAt: string;
  capturedAt?: string;
}

export interface LedgerRefund {
  invoiceID: string;
  paymentID: string;
  refundID: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  externalID?: string;
  error?: RefundError;
  /** What the refunded payment captured, for checking that its refunds never add up to more. */
  paymentAmount: number;
  invoiceMetadata: Record<string, unknown>;
  createdAt: string;
}

interface LedgerBindingCharge {
  customerID: string;
  bindingID: string;
  amount: number;
  currency: string;
  refunded: boolean;
}

export interface LedgerWithdrawal {
  withdrawalID: string;
  walletID: string;
  destinationID: string;
  amount: number;
  currency: string;
  status: WithdrawalStatus;
  externalID?: string;
  failure?: WithdrawalFailure;
  createdAt: string;
}

export interface Ledger {
  payments: LedgerPayment[];
  /** Refunds of payments, every status, oldest first. */
  refunds: LedgerRefund[];
  bindingCharges: LedgerBindingCharge[];
  withdrawals: LedgerWithdrawal[];
}

/** Every money movement the sandbox simulated, any status, oldest first: what tests and demos reconcile against. */
@Injectable()
export class LedgerService {
  constructor(private readonly store: SandboxStateService) {}

  ledger(): Ledger {
    const { state } = this.store;
    const payments: LedgerPayment[] = [];
    const refunds: LedgerRefund[] = [];
    for (const ref of state.paymentOrder) {
      const invoice = state.invoices.get(ref.invoiceID);
      const record = invoice?.payments[Number(ref.paymentID) - 1];
      if (!invoice || !record) continue;
      const { payment } = record;
      for (const { refund } of record.refunds ?? []) {
        refunds.push({
          invoiceID: invoice.invoice.id,
          paymentID: payment.id,
          refundID: refund.id,
          amount: refund.amount,
          currency: refund.currency,
          status: refund.status,
          ...(refund.externalID !== undefined ? { externalID: refund.externalID } : {}),
          ...(refund.error !== undefined ? { error: refund.error } : {}),
          paymentAmount: payment.amount,
          invoiceMetadata: invoice.invoice.metadata,
          createdAt: refund.createdAt,
        });
      }
      payments.push({
        invoiceID: invoice.invoice.id,
        paymentID: payment.id,
        customerID: record.customerID,
        amount: payment.amount,
        currency: payment.currency,
        status: payment.status,
        ...(payment.externalID !== undefined ? { externalID: payment.externalID } : {}),
        ...(invoice.invoice.externalID !== undefined ? { invoiceExternalID: invoice.invoice.externalID } : {}),
        invoiceMetadata: invoice.invoice.metadata,
        createdAt: payment.createdAt,
        ...(record.capturedAt !== undefined ? { capturedAt: record.capturedAt } : {}),
      });
    }
    const bindingCharges = state.bindingCharges.map(({ customerID, bindingID, amount, currency, refunded }) => ({ customerID, bindingID, amount, currency, refunded }));
    const withdrawals: LedgerWithdrawal[] = [...state.withdrawals.values()].map(({ withdrawal }) => ({
      withdrawalID: withdrawal.id,
      walletID: withdrawal.wallet,
      destinationID: withdrawal.destination,
      amount: withdrawal.body.amount,
      currency: withdrawal.body.currency,
      status: withdrawal.status,
      ...(withdrawal.externalID !== undefined ? { externalID: withdrawal.externalID } : {}),
      ...(withdrawal.failure !== undefined ? { failure: withdrawal.failure } : {}),
      createdAt: withdrawal.createdAt,
    }));
    refunds.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { payments, refunds, bindingCharges, withdrawals };
  }
}
