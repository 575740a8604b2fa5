import { Text } from '@mantine/core';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Charge, Subscription } from '../api/types';
import { PagedTable } from './paged-table';
import { IdLink, Money, Status, Time } from './values';

type SubscriptionFilter = { status?: Subscription['status']; planId?: string; customerId?: string };
type ChargeFilter = { status?: Charge['status']; customerId?: string; subscriptionId?: string };

/** What a list shows to a credential that may not read it (the page around it stays useful). */
function NotAllowed({ what, scope }: { what: string; scope: string }) {
  return (
    <Text size="sm" c="gray.8">
      {what} are not shown: this sign-in lacks the scope {scope}.
    </Text>
  );
}

/** Subscriptions, paged on the server, with any of its filters. */
export function SubscriptionsTable({ filter }: { filter: SubscriptionFilter }) {
  if (!useAllows('subscriptions:read')) return <NotAllowed what="Subscriptions" scope="subscriptions:read" />;
  return (
    <PagedTable<Subscription>
      caption="Subscriptions, newest first"
      queryKey={['subscriptions', filter]}
      fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/subscriptions', { params: { query: { ...filter, cursor, limit: 25 } } }))}
      rowKey={(s) => s.id}
      empty="No subscription matches."
      columns={[
        { header: 'Subscription', cell: (s) => <IdLink to={`/subscriptions/${s.id}`} id={s.id} /> },
        { header: 'Status', cell: (s) => <Status value={s.status} /> },
        { header: 'Customer', cell: (s) => <IdLink to={`/customers/${s.customerId}`} id={s.customerId} /> },
        { header: 'Plan', cell: (s) => <IdLink to={`/plans/${s.planId}`} id={s.planId} /> },
        { header: 'Next billing', cell: (s) => <Time value={s.nextBillingAt} zone={s.timezone} /> },
      ]}
    />
  );
}

/**
 * Charges (one per billing period), paged on the server. On a subscription's page `zone` shows the periods in its time
 * zone as well as UTC.
 */
export function ChargesTable({ filter, zone }: { filter: ChargeFilter; zone?: string }) {
  const { subscriptionId, ...rest } = filter;
  if (!useAllows('charges:read')) return <NotAllowed what="Charges" scope="charges:read" />;
  return (
    <PagedTable<Charge>
      caption="Charges, newest first"
      queryKey={['charges', filter]}
      fetchPage={async (cursor) =>
        unwrap(
          subscriptionId && !rest.status && !rest.customerId
            ? await api.GET('/api/v1/subscriptions/{id}/charges', { params: { path: { id: subscriptionId }, query: { cursor, limit: 25 } } })
            : await api.GET('/api/v1/charges', { params: { query: { ...rest, subscriptionId, cursor, limit: 25 } } }),
        )
      }
      rowKey={(c) => c.id}
      empty="No charge matches."
      columns={[
        { header: 'Charge', cell: (c) => <IdLink to={`/charges/${c.id}`} id={c.id} /> },
        { header: 'Status', cell: (c) => <Status value={c.status} /> },
        { header: 'Amount', cell: (c) => <Money amount={c.amount} currency={c.currency} /> },
        { header: 'Period', cell: (c) => <Time value={c.periodStart} zone={zone} /> },
        { header: 'Attempts', cell: (c) => c.attempts.length },
        { header: 'Last error', cell: (c) => c.lastErrorCode ?? '—' },
      ]}
    />
  );
}
