import { Code, Group, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { SubscriptionsTable } from '../components/lists';
import { Field, Json, Money, Status, Time } from '../components/values';

export default function PlanPage() {
  const { id = '' } = useParams();
  const plan = useQuery({ queryKey: ['plan', id], queryFn: async () => unwrap(await api.GET('/api/v1/plans/{id}', { params: { path: { id } } })) });
  if (plan.error) return <ErrorNotice error={plan.error} />;
  const p = plan.data;
  if (!p) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Plan {p.name} <Status value={p.status} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Id">
          <Code>{p.id}</Code>
        </Field>
        <Field label="Amount per period">
          <Money amount={p.amount} currency={p.currency} />
        </Field>
        <Field label="Period">
          every {p.intervalCount} {p.interval}
          {p.intervalCount === 1 ? '' : 's'}
        </Field>
        <Field label="Trial">{p.trialDays ? `${p.trialDays} days` : 'none'}</Field>
        <Field label="Product on the invoice">{p.product}</Field>
        <Field label="Dunning">
          {p.dunning.strategy === 'smart' ? `smart, up to ${p.dunning.maxDays} days` : `retry after ${p.dunning.retryDelays?.join(', ') || '—'}`}, then {p.dunning.finalAction}
        </Field>
        <Field label="Created">
          <Time value={p.createdAt} />
        </Field>
      </SimpleGrid>
      <Table w="auto">
        <caption style={{ position: 'absolute', left: -10000 }}>Invoice lines</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Line</Table.Th>
            <Table.Th scope="col">Price</Table.Th>
            <Table.Th scope="col">Quantity</Table.Th>
            <Table.Th scope="col">Tax</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.lines.map((l, i) => (
            <Table.Tr key={i}>
              <Table.Td>{l.product}</Table.Td>
              <Table.Td>
                <Money amount={l.price} currency={p.currency} />
              </Table.Td>
              <Table.Td>{l.quantity}</Table.Td>
              <Table.Td>{l.taxRate ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <ActionButton
          scope="plans:write"
          label="Archive"
          color="red"
          disabled={p.status !== 'active'}
          confirm={{
            title: `Archive ${p.name}?`,
            effect: 'No new subscription can use this plan from now on. Subscriptions already on it go on and are billed as before. An archived plan stays archived.',
            confirmLabel: 'Archive',
          }}
          run={async (key) => unwrap(await api.POST('/api/v1/plans/{id}/archive', { params: { path: { id } }, body: {}, headers: { 'Idempotency-Key': key } }))}
          done={(r) => `The plan is now ${r.status}: no new subscriptions; existing ones go on.`}
        />
      </Group>
      <section aria-labelledby="plan-subscriptions">
        <Title order={2} size="h4" id="plan-subscriptions">
          Subscriptions on this plan
        </Title>
        <SubscriptionsTable filter={{ planId: id }} />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          Metadata
        </Title>
        <Json value={p.metadata} />
      </section>
    </Stack>
  );
}
