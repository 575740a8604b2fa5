import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Charge, Subscription } from '../api/types';
import { PagedTable } from './paged-table';
import { CustomerLink, PlanLink } from './ids';
import { IdLink, Money, Status, Time } from './values';

type SubscriptionFilter = { status?: Subscription['status']; planId?: string; customerId?: string };
type ChargeFilter = {
  status?: Charge['status'];
  customerId?: string;
  subscriptionId?: string;
  lastAttempt?: 'succeeded' | 'declined';
  attemptedAfter?: string;
  attemptedBefore?: string;
};

/** What a list shows to a credential that may not read it (the page around it stays useful). */
function NotAllowed({ what, scope }: { what: 'subscriptions' | 'charges'; scope: string }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="gray.8">
      {what === 'subscriptions' ? t('lists.subscriptionsNotAllowed', { scope }) : t('lists.chargesNotAllowed', { scope })}
    </Text>
  );
}

/** Subscriptions, paged on the server, with any of its filters. */
export function SubscriptionsTable({ filter }: { filter: SubscriptionFilter }) {
  const { t } = useTranslation();
  if (!useAllows('subscriptions:read')) return <NotAllowed what="subscriptions" scope="subscriptions:read" />;
  return (
    <PagedTable<Subscription>
      caption={t('lists.subscriptionsCaption')}
      queryKey={['subscriptions', filter]}
      fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/subscriptions', { params: { query: { ...filter, cursor, limit: 25 } } }))}
      rowKey={(s) => s.id}
      empty={t('lists.noSubscription')}
      columns={[
        { header: t('col.subscription'), cell: (s) => <IdLink to={`/subscriptions/${s.id}`} id={s.id} /> },
        { header: t('col.status'), cell: (s) => <Status value={s.status} /> },
        { header: t('col.customer'), cell: (s) => <CustomerLink id={s.customerId} /> },
        { header: t('col.plan'), cell: (s) => <PlanLink id={s.planId} /> },
        { header: t('col.nextBilling'), cell: (s) => <Time value={s.nextBillingAt} zone={s.timezone} /> },
      ]}
    />
  );
}

/**
 * Charges (one per billing period), paged on the server. On a subscription's page `zone` shows the periods in its time
 * zone as well as UTC.
 */
export function ChargesTable({ filter, zone }: { filter: ChargeFilter; zone?: string }) {
  const { t } = useTranslation();
  const { subscriptionId, ...rest } = filter;
  if (!useAllows('charges:read')) return <NotAllowed what="charges" scope="charges:read" />;
  return (
    <PagedTable<Charge>
      caption={t('lists.chargesCaption')}
      queryKey={['charges', filter]}
      fetchPage={async (cursor) =>
        unwrap(
          subscriptionId && !rest.status && !rest.customerId
            ? await api.GET('/api/v1/subscriptions/{id}/charges', { params: { path: { id: subscriptionId }, query: { cursor, limit: 25 } } })
            : await api.GET('/api/v1/charges', { params: { query: { ...rest, subscriptionId, cursor, limit: 25 } } }),
        )
      }
      rowKey={(c) => c.id}
      empty={t('lists.noCharge')}
      columns={[
        { header: t('col.charge'), cell: (c) => <IdLink to={`/charges/${c.id}`} id={c.id} /> },
        { header: t('col.status'), cell: (c) => <Status value={c.status} /> },
        ...(filter.customerId || subscriptionId ? [] : [{ header: t('col.customer'), cell: (c: Charge) => <CustomerLink id={c.customerId} /> }]),
        { header: t('col.amount'), cell: (c) => <Money amount={c.amount} currency={c.currency} /> },
        { header: t('col.period'), cell: (c) => <Time value={c.periodStart} zone={zone} /> },
        { header: t('col.attempts'), cell: (c) => c.attempts.length },
        { header: t('col.lastError'), cell: (c) => c.lastErrorCode ?? '—' },
      ]}
    />
  );
}
