import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';

/**
 * "Card waiting for replacement": the customer's charges that wait for a new card (a hard decline: expired, blocked or
 * reissued card), so support sees at once why collection stopped and can send a recovery link.
 */
export function CardReplacementFlag({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const allowed = useAllows('charges:read');
  const failed = useQuery({
    queryKey: ['charges', { customerId, status: 'failed', waiting: true }],
    queryFn: async () => unwrap(await api.GET('/api/v1/charges', { params: { query: { customerId, status: 'failed', limit: 200 } } })),
    enabled: allowed,
  });
  const count = (failed.data?.items ?? []).filter((c) => c.waitingForNewCard).length;
  if (!allowed || count === 0) return null;
  return (
    <Alert variant="default" role="status" style={{ borderColor: 'var(--mantine-color-orange-9)' }} title={t('cardReplacement.waiting', { count })}>
      <Anchor href="#charges">{t('cardReplacement.show')}</Anchor>
    </Alert>
  );
}
