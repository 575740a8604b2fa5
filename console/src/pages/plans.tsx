import { Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Plan } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Money, Status, Time } from '../components/values';

export default function PlansPage() {
  const [status, setStatus] = useFilter('status');
  const mayWrite = useAllows('plans:write');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Plans
        </Title>
        {mayWrite && (
          <Button component={Link} to="/plans/new">
            New plan
          </Button>
        )}
      </Group>
      <StatusFilter label="Status" values={['active', 'archived']} value={status} onChange={setStatus} />
      <PagedTable<Plan>
        caption="Plans, newest first"
        queryKey={['plans', { status }]}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: status as Plan['status'] | undefined, cursor, limit: 25 } } }))}
        rowKey={(p) => p.id}
        empty="No plan yet."
        columns={[
          { header: 'Plan', cell: (p) => <IdLink to={`/plans/${p.id}`} id={p.id} /> },
          { header: 'Name', cell: (p) => p.name },
          { header: 'Amount', cell: (p) => <Money amount={p.amount} currency={p.currency} /> },
          { header: 'Every', cell: (p) => `${p.intervalCount} ${p.interval}${p.intervalCount === 1 ? '' : 's'}` },
          { header: 'Trial', cell: (p) => (p.trialDays ? `${p.trialDays} days` : '—') },
          { header: 'Status', cell: (p) => <Status value={p.status} /> },
          { header: 'Created', cell: (p) => <Time value={p.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
