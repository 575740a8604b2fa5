import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Plan } from '../api/types';
import { ActionButton } from '../components/action-button';
import { DunningSummary } from '../components/dunning-summary';
import { PlanDunningDialog } from '../components/plan-dunning-dialog';
import { PlanMigrationDialog } from '../components/plan-migration';
import { ErrorNotice } from '../components/error-notice';
import { RowsTable } from '../components/rows-table';
import { SubscriptionsTable } from '../components/lists';
import { Field, Json, Money, Status, Time } from '../components/values';
import { useValueLabel } from '../i18n/value-label';

export default function PlanPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const { id = '' } = useParams();
  const plan = useQuery({ queryKey: ['plan', id], queryFn: async () => unwrap(await api.GET('/api/v1/plans/{id}', { params: { path: { id } } })) });
  if (plan.error) return <ErrorNotice error={plan.error} />;
  const p = plan.data;
  if (!p) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('plan.title', { name: p.name })} <Status value={p.status} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('plan.id')}>
          <Code>{p.id}</Code>
        </Field>
        <Field label={t('plan.amountPerPeriod')}>
          <Money amount={p.amount} currency={p.currency} />
        </Field>
        <Field label={t('plan.period')}>{t('plan.every', { period: t(`interval.${p.interval}`, { count: p.intervalCount }) })}</Field>
        <Field label={t('plan.trial')}>{p.trialDays ? t('interval.day', { count: p.trialDays }) : t('common.none')}</Field>
        <Field label={t('plan.product')}>{p.product}</Field>
        <Field label={t('plan.strategy')}>{t(`dunningForm.${p.dunning.strategy}`)}</Field>
        <Field label={t('plan.dunning')}>
          <DunningSummary dunning={p.dunning} />
        </Field>
        <Field label={t('plan.created')}>
          <Time value={p.createdAt} />
        </Field>
      </SimpleGrid>
      <RowsTable<Plan['lines'][number] & { n: number }>
        caption={t('plan.linesCaption')}
        rows={p.lines.map((l, n) => ({ ...l, n }))}
        rowKey={(l) => String(l.n)}
        columns={[
          { header: t('plan.col.line'), cell: (l) => l.product },
          { header: t('plan.col.price'), cell: (l) => <Money amount={l.price} currency={p.currency} /> },
          { header: t('plan.col.quantity'), cell: (l) => l.quantity },
          { header: t('plan.col.tax'), cell: (l) => l.taxRate ?? t('plan.noTax') },
        ]}
      />
      <Group>
        <ActionButton
          scope="plans:write"
          label={t('plan.archive.label')}
          color="red"
          disabled={p.status !== 'active'}
          confirm={{
            title: t('plan.archive.title', { name: p.name }),
            effect: t('plan.archive.effect'),
            confirmLabel: t('plan.archive.confirm'),
          }}
          run={async (key) => unwrap(await api.POST('/api/v1/plans/{id}/archive', { params: { path: { id } }, body: {}, headers: { 'Idempotency-Key': key } }))}
          done={(r) => t('plan.archive.done', { status: valueLabel('status', r.status) })}
        />
        {p.status === 'active' && <PlanDunningDialog plan={p} />}
        <PlanMigrationDialog plan={p} />
      </Group>
      <section aria-labelledby="plan-subscriptions">
        <Title order={2} size="h4" id="plan-subscriptions">
          {t('plan.subscriptions')}
        </Title>
        <SubscriptionsTable filter={{ planId: id }} />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          {t('plan.metadata')}
        </Title>
        <Json value={p.metadata} />
      </section>
    </Stack>
  );
}
