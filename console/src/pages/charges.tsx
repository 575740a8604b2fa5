import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Charge } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { ChargesTable } from '../components/lists';

const STATUSES = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'] as const;

export default function ChargesPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('charges.title')}
      </Title>
      <StatusFilter label={t('charges.status')} values={STATUSES} value={status} onChange={setStatus} />
      <ChargesTable filter={{ status: status as Charge['status'] | undefined }} />
    </Stack>
  );
}
