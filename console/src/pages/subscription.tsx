import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Subscription, SubscriptionEvent } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { CopyId, CustomerLink } from '../components/ids';
import { ChargesTable } from '../components/lists';
import { SubscriptionBilling } from '../components/subscription-billing';
import { PagedTable } from '../components/paged-table';
import { Field, IdLink, Json, Money, Status, Time } from '../components/values';
import { useValueLabel } from '../i18n/value-label';

/**
 * Cancel, pause and resume, each saying what it will do before it does it. The buttons stay in place once used (disabled
 * when no longer possible), so each keeps showing what it did. The change-plan dialog joins these once plan changes land.
 */
function SubscriptionActions({ s, amount }: { s: Subscription; amount: React.ReactNode }) {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const id = s.id;
  const headers = (key: string) => ({ 'Idempotency-Key': key });
  const path = { path: { id } };
  const ended = s.status === 'canceled';
  const paused = s.status === 'paused';
  const said = (verb: 'setToCancel' | 'canceled' | 'resumed' | 'paused') => (r: Subscription) =>
    t(r.cancelAtPeriodEnd && r.status !== 'canceled' ? 'subscription.saidEnding' : 'subscription.said', { verb: t(`subscription.verb.${verb}`), status: valueLabel('status', r.status) });
  return (
    <Group>
      <ActionButton
        scope="subscriptions:write"
        label={t('subscription.cancelAtEnd.label')}
        color="orange"
        disabled={ended || s.cancelAtPeriodEnd}
        confirm={{
          title: t('subscription.cancelAtEnd.title'),
          effect: <Trans i18nKey="subscription.cancelAtEnd.effect" components={{ end: <Time value={s.currentPeriodEnd} zone={s.timezone} />, amount: <>{amount}</> }} />,
          confirmLabel: t('subscription.cancelAtEnd.confirm'),
        }}
        run={async (key) => unwrap(await api.POST('/api/v1/subscriptions/{id}/cancel', { params: path, body: { atPeriodEnd: true }, headers: headers(key) }))}
        done={said('setToCancel')}
      />
      <ActionButton
        scope="subscriptions:write"
        label={t('subscription.cancelNow.label')}
        color="red"
        disabled={ended}
        confirm={{
          title: t('subscription.cancelNow.title'),
          effect: <Trans i18nKey="subscription.cancelNow.effect" components={{ event: <Code>subscription.canceled</Code> }} />,
          confirmLabel: t('subscription.cancelNow.confirm'),
        }}
        run={async (key) => unwrap(await api.POST('/api/v1/subscriptions/{id}/cancel', { params: path, body: { atPeriodEnd: false }, headers: headers(key) }))}
        done={said('canceled')}
      />
      <ActionButton
        scope="subscriptions:write"
        label={paused ? t('subscription.resume.label') : t('subscription.pause.label')}
        color={paused ? 'green' : 'yellow'}
        disabled={ended}
        confirm={
          paused
            ? { title: t('subscription.resume.title'), effect: t('subscription.resume.effect'), confirmLabel: t('subscription.resume.confirm') }
            : {
                title: t('subscription.pause.title'),
                effect: <Trans i18nKey="subscription.pause.effect" components={{ next: <Time value={s.nextBillingAt} zone={s.timezone} /> }} />,
                confirmLabel: t('subscription.pause.confirm'),
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
  const { t } = useTranslation();
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));
  const { id = '' } = useParams();
  const subscription = useQuery({ queryKey: ['subscription', id], queryFn: async () => unwrap(await api.GET('/api/v1/subscriptions/{id}', { params: { path: { id } } })) });
  const valueLabel = useValueLabel();
  const planId = subscription.data?.planId;
  const plan = useQuery({
    queryKey: ['plan', planId],
    enabled: planId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/plans/{id}', { params: { path: { id: planId ?? '' } } })),
  });
  if (subscription.error) return <ErrorNotice error={subscription.error} />;
  const s = subscription.data;
  if (!s) return null;
  const statusLabel = (status?: string | null) => (status ? valueLabel('status', status) : '—');
  const amount = plan.data ? <Money amount={plan.data.amount} currency={plan.data.currency} /> : '…';
  return (
    <Stack>
      <Title order={1} size="h2">
        <Trans i18nKey="subscription.title" components={{ id: <Code fz="inherit">{s.id.slice(0, 8)}</Code>, status: <Status value={s.status} /> }} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('common.id')}>
          <Group gap={2} wrap="nowrap">
            <Code>{s.id}</Code>
            <CopyId id={s.id} />
          </Group>
        </Field>
        <Field label={t('subscription.customer')}>
          <CustomerLink id={s.customerId} />
        </Field>
        <Field label={t('subscription.plan')}>
          <IdLink to={`/plans/${s.planId}`} id={s.planId} /> {plan.data && `${plan.data.name}, `}
          {amount}
        </Field>
        <Field label={t('subscription.timeZone')}>{s.timezone}</Field>
        <Field label={t('subscription.currentPeriod')}>
          <Time value={s.currentPeriodStart} zone={s.timezone} /> → <Time value={s.currentPeriodEnd} zone={s.timezone} />
        </Field>
        <Field label={t('subscription.nextBilling')}>
          <Time value={s.nextBillingAt} zone={s.timezone} />
        </Field>
        <Field label={t('subscription.trialEnds')}>
          <Time value={s.trialEndsAt} zone={s.timezone} />
        </Field>
        <Field label={t('subscription.cancelAtPeriodEnd')}>{yesNo(s.cancelAtPeriodEnd)}</Field>
        <Field label={t('subscription.canceled')}>
          <Time value={s.canceledAt} zone={s.timezone} />
        </Field>
        <Field label={t('subscription.paused')}>
          <Time value={s.pausedAt} zone={s.timezone} />
        </Field>
      </SimpleGrid>
      <SubscriptionBilling s={s} plan={plan.data} />
      <SubscriptionActions s={s} amount={amount} />
      <section aria-labelledby="periods">
        <Title order={2} size="h4" id="periods">
          {t('subscription.periods')}
        </Title>
        <ChargesTable filter={{ subscriptionId: id }} zone={s.timezone} />
      </section>
      <section aria-labelledby="audit">
        <Title order={2} size="h4" id="audit">
          {t('subscription.audit')}
        </Title>
        <PagedTable<SubscriptionEvent>
          caption={t('subscription.auditCaption')}
          queryKey={['subscription-events', id]}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/subscriptions/{id}/events', { params: { path: { id }, query: { cursor, limit: 20 } } }))}
          rowKey={(e) => e.id}
          columns={[
            { header: t('col.when'), cell: (e) => <Time value={e.occurredAt} zone={s.timezone} /> },
            { header: t('col.what'), cell: (e) => <Code>{e.type}</Code> },
            { header: t('col.status'), cell: (e) => (e.fromStatus || e.toStatus ? `${statusLabel(e.fromStatus)} → ${statusLabel(e.toStatus)}` : '') },
            { header: t('col.details'), cell: (e) => <Code>{JSON.stringify(e.data)}</Code> },
          ]}
        />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          {t('subscription.metadata')}
        </Title>
        <Json value={s.metadata} />
      </section>
    </Stack>
  );
}
