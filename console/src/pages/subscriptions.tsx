import { Group, Select, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Subscription } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { SubscriptionsTable } from '../components/lists';

const STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'paused', 'unpaid', 'canceled'] as const;

export default function SubscriptionsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  const [planId, setPlanId] = useFilter('planId');
  // The plan filter offers the newest plans by name; any plan id also works through the address (?planId=).
  const plans = useQuery({ queryKey: ['plans', 'for-filter'], queryFn: async () => unwrap(await api.GET('/api/v1/plans', { params: { query: { limit: 100 } } })) });
  const planOptions = (plans.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.id.slice(0, 8)})` }));
  if (planId && !planOptions.some((o) => o.value === planId)) planOptions.push({ value: planId, label: planId });
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('subscriptions.title')}
      </Title>
      <Group align="flex-end">
        <StatusFilter label={t('subscriptions.status')} values={STATUSES} value={status} onChange={setStatus} />
        <Select label={t('subscriptions.plan')} w={320} data={[{ value: '', label: t('common.any') }, ...planOptions]} value={planId ?? ''} onChange={(v) => setPlanId(v || undefined)} allowDeselect={false} searchable />
      </Group>
      <SubscriptionsTable filter={{ status: status as Subscription['status'] | undefined, planId }} />
    </Stack>
  );
}
