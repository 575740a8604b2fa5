import { NumberInput, Progress, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Plan } from '../api/types';
import { formatMoney } from '../format/money';
import { ActionDialog } from './action-dialog';
import { Time } from './values';

/** A migration's progress, read again every second while its subscriptions are walked in the background. */
export function MigrationProgress({ id }: { id: string }) {
  const { t } = useTranslation();
  const migration = useQuery({
    queryKey: ['plan-migration', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/plan-migrations/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data?.status === 'done' ? false : 1_000),
  });
  const m = migration.data;
  if (!m) return <Text size="sm">{t('planMigrations.starting')}</Text>;
  const walked = m.counts.scheduled + m.counts.skipped;
  return (
    <Stack gap={4} data-testid="migration-progress">
      <Progress value={m.status === 'done' ? 100 : 50} animated={m.status !== 'done'} aria-label={t('planMigrations.progress')} />
      <Text size="sm">
        {m.status === 'done' ? t('planMigrations.done', { count: walked, scheduled: m.counts.scheduled, skipped: m.counts.skipped }) : t('planMigrations.running', { count: walked, scheduled: m.counts.scheduled, skipped: m.counts.skipped })}
      </Text>
      {m.completedAt && (
        <Text size="xs">
          {t('planMigrations.completed')} <Time value={m.completedAt} />
        </Text>
      )}
    </Stack>
  );
}

/** "Move subscribers to another plan": every subscriber moves at its first renewal at least the notice ahead. */
export function PlanMigrationDialog({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  const [toPlanId, setToPlanId] = useState<string | null>(null);
  const [noticeDays, setNoticeDays] = useState<number | string>(30);
  const plans = useQuery({
    queryKey: ['plans', { status: 'active', all: true }],
    queryFn: async () => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: 'active', limit: 100 } } })),
  });
  const choices = (plans.data?.items ?? [])
    .filter((p) => p.id !== plan.id && p.currency === plan.currency)
    .map((p) => ({ value: p.id, label: `${p.name}: ${formatMoney(p.amount, p.currency)}` }));
  const days = Number(noticeDays);
  const target = plans.data?.items.find((p) => p.id === toPlanId);
  return (
    <ActionDialog
      scope="admin"
      label={t('planMigrations.label')}
      title={t('planMigrations.title', { name: plan.name })}
      confirmLabel={t('planMigrations.confirm')}
      disabled={plan.status !== 'active'}
      ready={toPlanId !== null && Number.isInteger(days) && days >= 0 && days <= 90}
      onOpen={() => setToPlanId(null)}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/plans/{id}/migrations', { params: { path: { id: plan.id } }, body: { toPlanId: toPlanId ?? '', noticeDays: days }, headers: { 'Idempotency-Key': key } }))
      }
      done={(m) => <MigrationProgress id={m.id} />}
    >
      <Select label={t('planMigrations.toPlan')} data={choices} value={toPlanId} onChange={setToPlanId} comboboxProps={{ withinPortal: true }} />
      <NumberInput label={t('planMigrations.noticeDays')} description={t('planMigrations.noticeHelp')} min={0} max={90} allowDecimal={false} value={noticeDays} onChange={setNoticeDays} />
      {target && (
        <Text size="sm">
          {t('planMigrations.effect', { count: days, from: formatMoney(plan.amount, plan.currency), to: formatMoney(target.amount, target.currency), name: target.name })}
        </Text>
      )}
    </ActionDialog>
  );
}
