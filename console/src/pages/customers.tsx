import { Badge, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Customer } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Status, Time } from '../components/values';

export default function CustomersPage() {
  const { t } = useTranslation();
  const [q, setQ] = useFilter('q');
  const [status, setStatus] = useFilter('status');
  const [typed, setTyped] = useState(q ?? '');
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('customers.title')}
      </Title>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim() || undefined);
        }}
      >
        <Group align="flex-end">
          <TextInput label={t('customers.search')} description={t('customers.searchHelp')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} w={340} />
          <Button type="submit">{t('customers.search')}</Button>
          <StatusFilter label={t('customers.status')} values={['unready', 'ready']} value={status} onChange={setStatus} />
        </Group>
      </form>
      <PagedTable<Customer>
        caption={t('customers.caption')}
        queryKey={['customers', { q, status }]}
        fetchPage={async (cursor) =>
          unwrap(await api.GET('/api/v1/customers', { params: { query: { q, status: status as Customer['status'] | undefined, cursor, limit: 25 } } }))
        }
        rowKey={(c) => c.id}
        empty={t('customers.empty')}
        columns={[
          { header: t('col.customer'), cell: (c) => <IdLink to={`/customers/${c.id}`} id={c.id} /> },
          { header: t('col.email'), cell: (c) => c.email ?? '—' },
          { header: t('col.status'), cell: (c) => <Status value={c.status} /> },
          {
            header: t('col.card'),
            cell: (c) => (
              <>
                {c.card ? `${c.card.paymentSystem ?? ''} •••• ${c.card.lastDigits ?? ''}` : '—'}
                {c.cardExpired && (
                  // The colour is in the dot, the text in the page's own (AA contrast); never squeezed to nothing on a phone.
                  <Badge ml={6} variant="dot" color="orange" radius="sm" style={{ textTransform: 'none', minWidth: 'max-content' }}>
                    {t('cardExpired.short')}
                  </Badge>
                )}
              </>
            ),
          },
          { header: t('col.created'), cell: (c) => <Time value={c.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
