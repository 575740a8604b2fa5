import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { Customer } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Status, Time } from '../components/values';

export default function CustomersPage() {
  const [q, setQ] = useFilter('q');
  const [status, setStatus] = useFilter('status');
  const [typed, setTyped] = useState(q ?? '');
  return (
    <Stack>
      <Title order={1} size="h2">
        Customers
      </Title>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim() || undefined);
        }}
      >
        <Group align="flex-end">
          <TextInput label="Search" description="An id, the provider's id, or part of the email" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} w={340} />
          <Button type="submit">Search</Button>
          <StatusFilter label="Status" values={['unready', 'ready']} value={status} onChange={setStatus} />
        </Group>
      </form>
      <PagedTable<Customer>
        caption="Customers, newest first"
        queryKey={['customers', { q, status }]}
        fetchPage={async (cursor) =>
          unwrap(await api.GET('/api/v1/customers', { params: { query: { q, status: status as Customer['status'] | undefined, cursor, limit: 25 } } }))
        }
        rowKey={(c) => c.id}
        empty="No customer matches."
        columns={[
          { header: 'Customer', cell: (c) => <IdLink to={`/customers/${c.id}`} id={c.id} /> },
          { header: 'Email', cell: (c) => c.email ?? '—' },
          { header: 'Status', cell: (c) => <Status value={c.status} /> },
          { header: 'Card', cell: (c) => (c.card ? `${c.card.paymentSystem ?? ''} •••• ${c.card.lastDigits ?? ''}` : '—') },
          { header: 'Created', cell: (c) => <Time value={c.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
