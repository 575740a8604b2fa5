import type { Customer, CustomerStatus } from './customer.entity';

/** A customer as the follower takes it: only what reading the provider needs. */
export interface SyncTarget {
  id: string;
  providerCustomerId: string;
  status: CustomerStatus;
  lastEventId: number | null;
  activeBindingId: string | null;
  hasCard: boolean;
  createdAt: Date;
  /** next_sync_at exactly as the database printed it when we took the customer (our claim, or what refresh saw). */
  observedNextSyncAt: string | null;
}

export function syncTargetOf(
  customer: Pick<Customer, 'id' | 'providerCustomerId' | 'status' | 'lastEventId' | 'activeBindingId' | 'cardBin' | 'cardLastDigits' | 'createdAt'>,
  observedNextSyncAt: string | null,
): SyncTarget {
  return {
    id: customer.id,
    providerCustomerId: customer.providerCustomerId,
    status: customer.status,
    lastEventId: customer.lastEventId,
    activeBindingId: customer.activeBindingId,
    hasCard: customer.cardBin !== null || customer.cardLastDigits !== null,
    createdAt: customer.createdAt,
    observedNextSyncAt,
  };
}
