import { Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Plan } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Money, Status, Time } from '../components/values';

export default function PlansPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  const mayWrite = useAllows('plans:write');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('plans.title')}
        </Title>
        {mayWrite && (
          <Button component={Link} to="/plans/new">
            {t('plans.new')}
          </Button>
        )}
      </Group>
      <StatusFilter label={t('plans.status')} values={['active', 'archived']} value={status} onChange={setStatus} />
      <PagedTable<Plan>
        caption={t('plans.caption')}
        queryKey={['plans', { status }]}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: status as Plan['status'] | undefined, cursor, limit: 25 } } }))}
        rowKey={(p) => p.id}
        empty={t('plans.empty')}
        columns={[
          { header: t('col.plan'), cell: (p) => <IdLink to={`/plans/${p.id}`} id={p.id} /> },
          { header: t('col.name'), cell: (p) => p.name },
          { header: t('col.amount'), cell: (p) => <Money amount={p.amount} currency={p.currency} /> },
          { header: t('col.every'), cell: (p) => t(`interval.${p.interval}`, { count: p.intervalCount }) },
          { header: t('col.trial'), cell: (p) => (p.trialDays ? t('interval.day', { count: p.trialDays }) : '—') },
          { header: t('col.status'), cell: (p) => <Status value={p.status} /> },
          { header: t('col.created'), cell: (p) => <Time value={p.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
