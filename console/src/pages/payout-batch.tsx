import { Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Time } from '../components/values';
import { BatchProgress, PayoutsTable } from './payouts';

export default function PayoutBatchPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  // Read again every few seconds while payouts are still moving.
  const batch = useQuery({
    queryKey: ['payout-batch', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/payouts/batches/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && query.state.data.counts.pending + query.state.data.counts.processing > 0 ? 3_000 : false),
  });
  if (batch.error) return <ErrorNotice error={batch.error} />;
  const b = batch.data;
  if (!b) return null;
  const done = b.counts.succeeded + b.counts.failed;
  return (
    <Stack>
      <Title order={1} size="h2">
        <Trans i18nKey="payoutBatch.title" components={{ id: <Code fz="inherit">{b.id.slice(0, 8)}</Code> }} />
      </Title>
      <Text>
        <Trans i18nKey="payoutBatch.accepted" components={{ time: <Time value={b.createdAt} /> }} />
      </Text>
      <Group>
        <BatchProgress batch={b} />
        <Text data-testid="batch-progress">
          {t('payoutBatch.progress', { done, total: b.total, ...b.counts })}
        </Text>
      </Group>
      <PayoutsTable filter={{ batchId: id }} />
    </Stack>
  );
}
