import type { Payout, PayoutStatus } from './payout.entity';
import type { PayoutDestination, PayoutDestinationStatus } from './payout-destination.entity';
import type { PayoutSetup } from './payout-setup.entity';

export interface PayoutSetupResponse {
  identityId: string;
  walletId: string;
  currency: string;
  adopted: boolean;
}

export interface PayoutDestinationResponse {
  id: string;
  providerDestinationId: string | null;
  status: PayoutDestinationStatus;
  name: string;
  currency: string;
  bin: string | null;
  lastDigits: string | null;
  paymentSystem: string | null;
  metadata: Record<string, unknown>;
  authorizedAt: string | null;
  createdAt: string;
}

export interface PayoutResponse {
  id: string;
  destinationId: string;
  batchId: string | null;
  reference: string | null;
  amount: number;
  currency: string;
  status: PayoutStatus;
  withdrawalId: string | null;
  failureCode: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export type PayoutCounts = Record<PayoutStatus, number>;

export interface PayoutBatchResponse {
  id: string;
  total: number;
  counts: PayoutCounts;
  createdAt: string;
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export function toPayoutSetupResponse(setup: PayoutSetup): PayoutSetupResponse {
  return { identityId: setup.identityId, walletId: setup.walletId, currency: setup.currency, adopted: setup.adopted };
}

export function toPayoutDestinationResponse(destination: PayoutDestination): PayoutDestinationResponse {
  return {
    id: destination.id,
    providerDestinationId: destination.providerDestinationId,
    status: destination.status,
    name: destination.name,
    currency: destination.currency,
    bin: destination.bin,
    lastDigits: destination.lastDigits,
    paymentSystem: destination.paymentSystem,
    metadata: destination.metadata,
    authorizedAt: iso(destination.authorizedAt),
    createdAt: destination.createdAt.toISOString(),
  };
}

export function toPayoutResponse(payout: Payout): PayoutResponse {
  return {
    id: payout.id,
    destinationId: payout.destinationId,
    batchId: payout.batchId,
    reference: payout.reference,
    amount: payout.amount,
    currency: payout.currency,
    status: payout.status,
    withdrawalId: payout.providerWithdrawalId,
    failureCode: payout.failureCode,
    metadata: payout.metadata,
    createdAt: payout.createdAt.toISOString(),
    updatedAt: payout.updatedAt.toISOString(),
    completedAt: iso(payout.completedAt),
  };
}
