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

/** One audit event to append, for the batched form. */
export interface AuditEvent {
  subscriptionId: string;
  type: string;
  from?: SubscriptionStatus | null;
  to?: SubscriptionStatus | null;
  data?: Record<string, unknown>;
}

/** Appends several audit events in one statement, in the given order, in the caller's transaction. */
export async function recordSubscriptionEvents(em: EntityManager, events: AuditEvent[], occurredAt: Date): Promise<void> {
  if (events.length === 0) return;
  await em.query(
    `INSERT INTO subscription_events (subscription_id, type, from_status, to_status, data, occurred_at, created_at)
     SELECT e.subscription_id, e.type, e.from_status, e.to_status, e.data, $6, $6
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[]) WITH ORDINALITY AS e(subscription_id, type, from_status, to_status, data, n)
      ORDER BY e.n`,
    [
      events.map((e) => e.subscriptionId),
      events.map((e) => e.type),
      events.map((e) => e.from ?? null),
      events.map((e) => e.to ?? null),
      events.map((e) => JSON.stringify(e.data ?? {})),
      occurredAt,
    ],
  );
}
