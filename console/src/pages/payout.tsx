import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { CopyId } from '../components/ids';
import { Field, IdLink, Json, Money, Status, Time } from '../components/values';

export default function PayoutPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const payout = useQuery({ queryKey: ['payout', id], queryFn: async () => unwrap(await api.GET('/api/v1/payouts/{id}', { params: { path: { id } } })) });
  if (payout.error) return <ErrorNotice error={payout.error} />;
  const p = payout.data;
  if (!p) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        <Trans i18nKey="payout.title" components={{ id: <Code fz="inherit">{p.id.slice(0, 8)}</Code>, status: <Status value={p.status} /> }} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('common.id')}>
          <Group gap={2} wrap="nowrap">
            <Code>{p.id}</Code>
            <CopyId id={p.id} />
          </Group>
        </Field>
        <Field label={t('payout.amount')}>
          <Money amount={p.amount} currency={p.currency} />
        </Field>
        <Field label={t('payout.destination')}>
          <Code>{p.destinationId}</Code>
        </Field>
        <Field label={t('payout.batch')}>{p.batchId ? <IdLink to={`/payouts/batches/${p.batchId}`} id={p.batchId} /> : '—'}</Field>
        <Field label={t('payout.withdrawal')}>{p.withdrawalId ?? '—'}</Field>
        <Field label={t('payout.failure')}>{p.failureCode ?? '—'}</Field>
        <Field label={t('payout.accepted')}>
          <Time value={p.createdAt} />
        </Field>
        <Field label={t('payout.completed')}>
          <Time value={p.completedAt} />
        </Field>
      </SimpleGrid>
      <Json value={p.metadata} />
    </Stack>
  );
}
