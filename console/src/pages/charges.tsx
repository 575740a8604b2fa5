import { Stack, Title } from '@mantine/core';
import type { Charge } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { ChargesTable } from '../components/lists';

const STATUSES = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'] as const;

export default function ChargesPage() {
  const [status, setStatus] = useFilter('status');
  return (
    <Stack>
      <Title order={1} size="h2">
        Charges
      </Title>
      <StatusFilter label="Status" values={STATUSES} value={status} onChange={setStatus} />
      <ChargesTable filter={{ status: status as Charge['status'] | undefined }} />
    </Stack>
  );
}
