import { EntityManager } from 'typeorm';
import { Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionEvent } from './subscription-event.entity';

/** Appends one audit event in the caller's transaction, so a change and its record commit together. */
export async function recordSubscriptionEvent(
  em: EntityManager,
  subscription: Pick<Subscription, 'id'>,
  type: string,
  occurredAt: Date,
  change: { from?: SubscriptionStatus | null; to?: SubscriptionStatus | null; data?: Record<string, unknown> } = {},
): Promise<void> {
  const event = em.create(SubscriptionEvent, {
    subscriptionId: subscription.id,
    type,
    fromStatus: change.from ?? null,
    toStatus: change.to ?? null,
    data: change.data ?? {},
    occurredAt,
    createdAt: occurredAt,
  });
  await em.save(event);
}
