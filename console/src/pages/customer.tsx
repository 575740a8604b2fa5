import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { Binding } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { ChargesTable, SubscriptionsTable } from '../components/lists';
import { PagedTable } from '../components/paged-table';
import { Field, Json, Status, Time } from '../components/values';

export default function CustomerPage() {
  const { id = '' } = useParams();
  const customer = useQuery({ queryKey: ['customer', id], queryFn: async () => unwrap(await api.GET('/api/v1/customers/{id}', { params: { path: { id } } })) });
  if (customer.error) return <ErrorNotice error={customer.error} />;
  const c = customer.data;
  if (!c) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Customer {c.email ?? c.id}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Id">
          <Code>{c.id}</Code>
        </Field>
        <Field label="Status">
          <Status value={c.status} />
        </Field>
        <Field label="Provider's id">
          <Code>{c.providerCustomerId}</Code>
        </Field>
        <Field label="Email">{c.email ?? '—'}</Field>
        <Field label="Phone">{c.phone ?? '—'}</Field>
        <Field label="Ready since">
          <Time value={c.readyAt} />
        </Field>
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} size="h4">
          Card
        </Title>
        {c.card ? (
          <Text>
            {c.card.paymentSystem ?? 'Card'} {c.card.bin ?? ''}•••••• {c.card.lastDigits ?? ''}
          </Text>
        ) : (
          <Text>No card bound yet{c.pendingBinding ? ': a binding is in progress.' : '.'}</Text>
        )}
        <Group mt="sm">
          {c.hostedFormUrl && (
            <Anchor href={c.hostedFormUrl} target="_blank" rel="noreferrer">
              Hosted binding form (needs an access token)
            </Anchor>
          )}
          <ActionButton
            scope="customers:write"
            label="New access token"
            run={async (key) => unwrap(await api.POST('/api/v1/customers/{id}/access-token', { params: { path: { id } }, headers: { 'Idempotency-Key': key } }))}
            done={(r) => (
              <Stack gap={4}>
                <Text size="sm">A new customer access token (shown once, never stored):</Text>
                <Code data-testid="access-token">{r.customerAccessToken}</Code>
                {r.hostedFormUrl && (
                  <Anchor href={r.hostedFormUrl} target="_blank" rel="noreferrer">
                    Open the hosted form with this token
                  </Anchor>
                )}
              </Stack>
            )}
          />
        </Group>
      </Card>
      <section aria-labelledby="bindings">
        <Title order={2} size="h4" id="bindings">
          Card bindings
        </Title>
        <PagedTable<Binding>
          caption="Card bindings, newest first"
          queryKey={['bindings', id]}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/customers/{id}/bindings', { params: { path: { id }, query: { cursor, limit: 10 } } }))}
          rowKey={(b) => b.id}
          empty="No binding yet."
          columns={[
            { header: 'Started', cell: (b) => <Time value={b.createdAt} /> },
            { header: 'Source', cell: (b) => b.source },
            { header: 'Status', cell: (b) => <Status value={b.status} /> },
            { header: 'Card', cell: (b) => (b.card ? `•••• ${b.card.lastDigits ?? ''}` : '—') },
            { header: 'Error', cell: (b) => b.errorCode ?? '—' },
          ]}
        />
      </section>
      <section aria-labelledby="subscriptions">
        <Title order={2} size="h4" id="subscriptions">
          Subscriptions
        </Title>
        <SubscriptionsTable filter={{ customerId: id }} />
      </section>
      <section aria-labelledby="charges">
        <Title order={2} size="h4" id="charges">
          Charges
        </Title>
        <ChargesTable filter={{ customerId: id }} />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          Metadata
        </Title>
        <Json value={c.metadata} />
      </section>
    </Stack>
  );
}
