import { Alert, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { PendingItem } from '../api/types';
import { useAllows } from '../api/use-allows';
import { formatMoney } from '../format/money';
import { ActionButton } from './action-button';
import { IdLink } from './ids';
import { PagedTable } from './paged-table';
import { Money, Time } from './values';

/** What an item is called: the merchant's description, else its lines' products. */
function itemName(item: PendingItem): string {
  return item.description ?? item.lines.map((line) => line.product).join(', ');
}

/**
 * Removing an item drops it before the renewal bills it (the API answers it `canceled`); it asks first. Its row leaves
 * the list once done, so the list above says what was removed.
 */
function RemoveItem({ item, onRemoved }: { item: PendingItem; onRemoved: (sentence: string) => void }) {
  const { t } = useTranslation();
  const values = { description: itemName(item), amount: formatMoney(item.amount, item.currency) };
  return (
    <ActionButton
      scope="charges:write"
      label={t('pendingItems.remove.label')}
      color="red"
      variant="default"
      confirm={{ title: t('pendingItems.remove.title'), effect: t('pendingItems.remove.effect', values), confirmLabel: t('pendingItems.remove.confirm') }}
      run={async (key) => unwrap(await api.DELETE('/api/v1/pending-items/{id}', { params: { path: { id: item.id } }, headers: { 'Idempotency-Key': key } }))}
      done={() => t('pendingItems.remove.done', values)}
      showResult={false}
      onDone={() => onRemoved(t('pendingItems.remove.done', values))}
    />
  );
}

/** The customer's one-off items that wait for a subscription's next renewal, newest first, each removable. */
export function CustomerPendingItems({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const allowed = useAllows('charges:read');
  const [removed, setRemoved] = useState<string | null>(null);
  return (
    <section aria-labelledby="pending-items">
      <Title order={2} size="h4" id="pending-items">
        {t('pendingItems.title')}
      </Title>
      <Text size="sm" c="gray.8" mb="xs">
        {t('pendingItems.help')}
      </Text>
      {removed !== null && (
        <Alert variant="default" role="status" title={t('common.done')} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={() => setRemoved(null)} mb="xs">
          {removed}
        </Alert>
      )}
      {allowed ? (
        <PagedTable<PendingItem>
          caption={t('pendingItems.caption')}
          queryKey={['pending-items', customerId]}
          fetchPage={async (cursor) =>
            unwrap(await api.GET('/api/v1/customers/{id}/pending-items', { params: { path: { id: customerId }, query: { status: 'pending', cursor, limit: 25 } } }))
          }
          rowKey={(item) => item.id}
          empty={t('pendingItems.empty')}
          columns={[
            { header: t('pendingItems.colDescription'), cell: (item) => itemName(item) },
            { header: t('pendingItems.colAmount'), cell: (item) => <Money amount={item.amount} currency={item.currency} /> },
            { header: t('pendingItems.colSubscription'), cell: (item) => <IdLink to={`/subscriptions/${item.subscriptionId}`} id={item.subscriptionId} /> },
            { header: t('pendingItems.colCreated'), cell: (item) => <Time value={item.createdAt} /> },
            { header: t('pendingItems.colActions'), cell: (item) => <RemoveItem item={item} onRemoved={setRemoved} /> },
          ]}
        />
      ) : (
        <Text size="sm" c="gray.8">
          {t('pendingItems.notAllowed', { scope: 'charges:read' })}
        </Text>
      )}
    </section>
  );
}
