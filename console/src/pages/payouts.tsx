import { Button, Group, Progress, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Payout, PayoutBatch } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Money, Status, Time } from '../components/values';

/** How far a batch has come: final payouts out of all. */
export function BatchProgress({ batch }: { batch: PayoutBatch }) {
  const { succeeded, failed } = batch.counts;
  const total = batch.total || 1;
  return (
    <Progress.Root size="lg" w={200} title={`${succeeded + failed} of ${batch.total} final`}>
      <Progress.Section value={(succeeded / total) * 100} color="green" aria-label={`${succeeded} of ${batch.total} succeeded`} />
      <Progress.Section value={(failed / total) * 100} color="red" aria-label={`${failed} of ${batch.total} failed`} />
    </Progress.Root>
  );
}

export function PayoutsTable({ filter }: { filter: { status?: Payout['status']; batchId?: string } }) {
  return (
    <PagedTable<Payout>
      caption="Payouts, newest first"
      queryKey={['payouts', filter]}
      fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/payouts', { params: { query: { ...filter, cursor, limit: 25 } } }))}
      rowKey={(p) => p.id}
      empty="No payout matches."
      columns={[
        { header: 'Payout', cell: (p) => <IdLink to={`/payouts/${p.id}`} id={p.id} /> },
        { header: 'Status', cell: (p) => <Status value={p.status} /> },
        { header: 'Amount', cell: (p) => <Money amount={p.amount} currency={p.currency} /> },
        { header: 'Batch', cell: (p) => (p.batchId ? <IdLink to={`/payouts/batches/${p.batchId}`} id={p.batchId} /> : '—') },
        { header: 'Failure', cell: (p) => p.failureCode ?? '—' },
        { header: 'Accepted', cell: (p) => <Time value={p.createdAt} /> },
      ]}
    />
  );
}

export default function PayoutsPage() {
  const [status, setStatus] = useFilter('status');
  const mayWrite = useAllows('payouts:write');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Payouts
        </Title>
        {mayWrite && (
          <Button component={Link} to="/payouts/upload">
            Upload a CSV
          </Button>
        )}
      </Group>
      <section aria-labelledby="batches">
        <Title order={2} size="h4" id="batches">
          Batches
        </Title>
        <PagedTable<PayoutBatch>
          caption="Payout batches, newest first"
          queryKey={['payout-batches']}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/payouts/batches', { params: { query: { cursor, limit: 10 } } }))}
          rowKey={(b) => b.id}
          empty="No batch yet."
          columns={[
            { header: 'Batch', cell: (b) => <IdLink to={`/payouts/batches/${b.id}`} id={b.id} /> },
            { header: 'Payouts', cell: (b) => b.total },
            { header: 'Progress', cell: (b) => <BatchProgress batch={b} /> },
            { header: 'Succeeded', cell: (b) => b.counts.succeeded },
            { header: 'Failed', cell: (b) => b.counts.failed },
            { header: 'Accepted', cell: (b) => <Time value={b.createdAt} /> },
          ]}
        />
      </section>
      <section aria-labelledby="all-payouts">
        <Title order={2} size="h4" id="all-payouts">
          All payouts
        </Title>
        <StatusFilter label="Status" values={['pending', 'processing', 'succeeded', 'failed']} value={status} onChange={setStatus} />
        <PayoutsTable filter={{ status: status as Payout['status'] | undefined }} />
      </section>
    </Stack>
  );
}
