import { Button, Group, Progress, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import type { Payout, PayoutBatch } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Money, Status, Time } from '../components/values';

/** How far a batch has come: final payouts out of all. */
export function BatchProgress({ batch }: { batch: PayoutBatch }) {
  const { t } = useTranslation();
  const { succeeded, failed } = batch.counts;
  const total = batch.total || 1;
  return (
    <Progress.Root size="lg" w={200} title={t('payouts.progressTitle', { done: succeeded + failed, total: batch.total })}>
      <Progress.Section value={(succeeded / total) * 100} color="green" aria-label={t('payouts.progressSucceeded', { count: succeeded, total: batch.total })} />
      <Progress.Section value={(failed / total) * 100} color="red" aria-label={t('payouts.progressFailed', { count: failed, total: batch.total })} />
    </Progress.Root>
  );
}

export function PayoutsTable({ filter }: { filter: { status?: Payout['status']; batchId?: string } }) {
  const { t } = useTranslation();
  return (
    <PagedTable<Payout>
      caption={t('payouts.caption')}
      queryKey={['payouts', filter]}
      fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/payouts', { params: { query: { ...filter, cursor, limit: 25 } } }))}
      rowKey={(p) => p.id}
      empty={t('payouts.empty')}
      columns={[
        { header: t('col.payout'), cell: (p) => <IdLink to={`/payouts/${p.id}`} id={p.id} /> },
        { header: t('col.status'), cell: (p) => <Status value={p.status} /> },
        { header: t('col.amount'), cell: (p) => <Money amount={p.amount} currency={p.currency} /> },
        { header: t('col.batch'), cell: (p) => (p.batchId ? <IdLink to={`/payouts/batches/${p.batchId}`} id={p.batchId} /> : '—') },
        { header: t('col.failure'), cell: (p) => p.failureCode ?? '—' },
        { header: t('col.accepted'), cell: (p) => <Time value={p.createdAt} /> },
      ]}
    />
  );
}

export default function PayoutsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  const mayWrite = useAllows('payouts:write');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('payouts.title')}
        </Title>
        {mayWrite && (
          <Button component={Link} to="/payouts/upload">
            {t('payouts.upload')}
          </Button>
        )}
      </Group>
      <section aria-labelledby="batches">
        <Title order={2} size="h4" id="batches">
          {t('payouts.batches')}
        </Title>
        <PagedTable<PayoutBatch>
          caption={t('payouts.batchesCaption')}
          queryKey={['payout-batches']}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/payouts/batches', { params: { query: { cursor, limit: 10 } } }))}
          rowKey={(b) => b.id}
          empty={t('payouts.noBatch')}
          columns={[
            { header: t('col.batch'), cell: (b) => <IdLink to={`/payouts/batches/${b.id}`} id={b.id} /> },
            { header: t('col.payouts'), cell: (b) => b.total },
            { header: t('col.progress'), cell: (b) => <BatchProgress batch={b} /> },
            { header: t('col.succeeded'), cell: (b) => b.counts.succeeded },
            { header: t('col.failed'), cell: (b) => b.counts.failed },
            { header: t('col.accepted'), cell: (b) => <Time value={b.createdAt} /> },
          ]}
        />
      </section>
      <section aria-labelledby="all-payouts">
        <Title order={2} size="h4" id="all-payouts">
          {t('payouts.all')}
        </Title>
        <StatusFilter label={t('payouts.status')} values={['pending', 'processing', 'succeeded', 'failed']} value={status} onChange={setStatus} />
        <PayoutsTable filter={{ status: status as Payout['status'] | undefined }} />
      </section>
    </Stack>
  );
}
