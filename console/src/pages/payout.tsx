import { Code, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Field, IdLink, Json, Money, Status, Time } from '../components/values';

export default function PayoutPage() {
  const { id = '' } = useParams();
  const payout = useQuery({ queryKey: ['payout', id], queryFn: async () => unwrap(await api.GET('/api/v1/payouts/{id}', { params: { path: { id } } })) });
  if (payout.error) return <ErrorNotice error={payout.error} />;
  const p = payout.data;
  if (!p) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Payout <Code fz="inherit">{p.id.slice(0, 8)}</Code> <Status value={p.status} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Amount">
          <Money amount={p.amount} currency={p.currency} />
        </Field>
        <Field label="Destination">
          <Code>{p.destinationId}</Code>
        </Field>
        <Field label="Batch">{p.batchId ? <IdLink to={`/payouts/batches/${p.batchId}`} id={p.batchId} /> : '—'}</Field>
        <Field label="Provider's withdrawal">{p.withdrawalId ?? '—'}</Field>
        <Field label="Failure">{p.failureCode ?? '—'}</Field>
        <Field label="Accepted">
          <Time value={p.createdAt} />
        </Field>
        <Field label="Completed">
          <Time value={p.completedAt} />
        </Field>
      </SimpleGrid>
      <Json value={p.metadata} />
    </Stack>
  );
}
