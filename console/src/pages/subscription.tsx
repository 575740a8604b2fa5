import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Subscription, SubscriptionEvent } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { ChargesTable } from '../components/lists';
import { PagedTable } from '../components/paged-table';
import { Field, IdLink, Json, Money, Status, Time } from '../components/values';

/**
 * Cancel, pause and resume, each saying what it will do before it does it. The buttons stay in place once used (disabled
 * when no longer possible), so each keeps showing what it did. The change-plan dialog joins these once plan changes land.
 */
function SubscriptionActions({ s, amount }: { s: Subscription; amount: React.ReactNode }) {
  const id = s.id;
  const headers = (key: string) => ({ 'Idempotency-Key': key });
  const path = { path: { id } };
  const ended = s.status === 'canceled';
  const paused = s.status === 'paused';
  const said = (verb: string) => (r: Subscription) => `Subscription ${verb}: it is now ${r.status}${r.cancelAtPeriodEnd && r.status !== 'canceled' ? ', ending at the period end' : ''}.`;
  return (
    <Group>
      <ActionButton
        scope="subscriptions:write"
        label="Cancel at period end"
        color="orange"
        disabled={ended || s.cancelAtPeriodEnd}
        confirm={{
          title: 'Cancel at the end of the period?',
          effect: (
            <>
              The subscription runs until <Time value={s.currentPeriodEnd} zone={s.timezone} /> and is then canceled. Nothing more is charged ({amount} per period now).
            </>
          ),
          confirmLabel: 'Cancel at period end',
        }}
        run={async (key) => unwrap(await api.POST('/api/v1/subscriptions/{id}/cancel', { params: path, body: { atPeriodEnd: true }, headers: headers(key) }))}
        done={said('set to cancel')}
      />
      <ActionButton
        scope="subscriptions:write"
        label="Cancel now"
        color="red"
        disabled={ended}
        confirm={{
          title: 'Cancel now?',
          effect: (
            <>
              The subscription ends at once: no further charge, and charges not yet sent to the provider are dropped. The merchant hears{' '}
              <Code>subscription.canceled</Code>. This cannot be undone.
            </>
          ),
          confirmLabel: 'Cancel now',
        }}
        run={async (key) => unwrap(await api.POST('/api/v1/subscriptions/{id}/cancel', { params: path, body: { atPeriodEnd: false }, headers: headers(key) }))}
        done={said('canceled')}
      />
      <ActionButton
        scope="subscriptions:write"
        label={paused ? 'Resume' : 'Pause'}
        color={paused ? 'green' : 'yellow'}
        disabled={ended}
        confirm={
          paused
            ? { title: 'Resume this subscription?', effect: 'Periods that began during the pause are not billed. Billing goes on at the next renewal of the original schedule; nothing is charged now.', confirmLabel: 'Resume' }
            : {
                title: 'Pause this subscription?',
                effect: <>Nothing is charged while it is paused; the next billing (<Time value={s.nextBillingAt} zone={s.timezone} />) waits until it is resumed.</>,
                confirmLabel: 'Pause',
              }
        }
        run={async (key) =>
          unwrap(
            paused
              ? await api.POST('/api/v1/subscriptions/{id}/resume', { params: path, body: {}, headers: headers(key) })
              : await api.POST('/api/v1/subscriptions/{id}/pause', { params: path, body: {}, headers: headers(key) }),
          )
        }
        done={said(paused ? 'resumed' : 'paused')}
      />
    </Group>
  );
}

export default function SubscriptionPage() {
  const { id = '' } = useParams();
  const subscription = useQuery({ queryKey: ['subscription', id], queryFn: async () => unwrap(await api.GET('/api/v1/subscriptions/{id}', { params: { path: { id } } })) });
  const planId = subscription.data?.planId;
  const plan = useQuery({
    queryKey: ['plan', planId],
    enabled: planId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/plans/{id}', { params: { path: { id: planId ?? '' } } })),
  });
  if (subscription.error) return <ErrorNotice error={subscription.error} />;
  const s = subscription.data;
  if (!s) return null;
  const amount = plan.data ? <Money amount={plan.data.amount} currency={plan.data.currency} /> : '…';
  return (
    <Stack>
      <Title order={1} size="h2">
        Subscription <Code fz="inherit">{s.id.slice(0, 8)}</Code> <Status value={s.status} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Customer">
          <IdLink to={`/customers/${s.customerId}`} id={s.customerId} />
        </Field>
        <Field label="Plan">
          <IdLink to={`/plans/${s.planId}`} id={s.planId} /> {plan.data && `${plan.data.name}, `}
          {amount}
        </Field>
        <Field label="Time zone">{s.timezone}</Field>
        <Field label="Current period">
          <Time value={s.currentPeriodStart} zone={s.timezone} /> → <Time value={s.currentPeriodEnd} zone={s.timezone} />
        </Field>
        <Field label="Next billing">
          <Time value={s.nextBillingAt} zone={s.timezone} />
        </Field>
        <Field label="Trial ends">
          <Time value={s.trialEndsAt} zone={s.timezone} />
        </Field>
        <Field label="Cancel at period end">{s.cancelAtPeriodEnd ? 'yes' : 'no'}</Field>
        <Field label="Canceled">
          <Time value={s.canceledAt} zone={s.timezone} />
        </Field>
        <Field label="Paused">
          <Time value={s.pausedAt} zone={s.timezone} />
        </Field>
      </SimpleGrid>
      <SubscriptionActions s={s} amount={amount} />
      <section aria-labelledby="periods">
        <Title order={2} size="h4" id="periods">
          Periods and their charges
        </Title>
        <ChargesTable filter={{ subscriptionId: id }} zone={s.timezone} />
      </section>
      <section aria-labelledby="audit">
        <Title order={2} size="h4" id="audit">
          Audit trail
        </Title>
        <PagedTable<SubscriptionEvent>
          caption="Audit trail, newest first"
          queryKey={['subscription-events', id]}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/subscriptions/{id}/events', { params: { path: { id }, query: { cursor, limit: 20 } } }))}
          rowKey={(e) => e.id}
          columns={[
            { header: 'When', cell: (e) => <Time value={e.occurredAt} zone={s.timezone} /> },
            { header: 'What', cell: (e) => e.type },
            { header: 'Status', cell: (e) => (e.fromStatus || e.toStatus ? `${e.fromStatus ?? '—'} → ${e.toStatus ?? '—'}` : '') },
            { header: 'Details', cell: (e) => <Code>{JSON.stringify(e.data)}</Code> },
          ]}
        />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          Metadata
        </Title>
        <Json value={s.metadata} />
      </section>
    </Stack>
  );
}
