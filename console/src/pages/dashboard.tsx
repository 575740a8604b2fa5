import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Money, Time } from '../components/values';
import { reportRange } from '../format/report-range';

function Figure({ label, value, to }: { label: string; value: number; to?: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm">{label}</Text>
      <Text fz={28} fw={700}>
        {to ? (
          <Anchor component={Link} to={to} inherit>
            {value}
          </Anchor>
        ) : (
          value
        )}
      </Text>
    </Card>
  );
}

/** This month's MRR per currency, how it moved since the month began, and how renewals fared: the owner's first look. */
function RevenueThisMonth({ dayStart }: { dayStart: string }) {
  const range = reportRange(dayStart, 'month', 1);
  const report = useQuery({
    queryKey: ['revenue', 'month', range.from, range.to],
    queryFn: async () => unwrap(await api.GET('/api/v1/reports/revenue', { params: { query: { interval: 'month', from: range.from, to: range.to } } })),
    refetchInterval: 60_000,
  });
  if (report.error) return <ErrorNotice error={report.error} />;
  const rows = report.data?.items ?? [];
  return (
    <section aria-labelledby="revenue-this-month">
      <Title order={2} size="h4" id="revenue-this-month" mb="xs">
        Revenue this month{' '}
        <Anchor component={Link} to="/revenue" size="sm" fw={400}>
          (every month)
        </Anchor>
      </Title>
      {report.data && rows.length === 0 && <Text size="sm">No subscription has been billed this month yet.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {rows.map((r) => (
          <Card key={r.currency} withBorder padding="sm">
            <Text size="sm">MRR ({r.currency})</Text>
            <Text fz={28} fw={700}>
              <Money amount={r.mrr} currency={r.currency} />
            </Text>
            <Text size="sm">
              {r.mrr >= r.mrrAtStart ? 'Up' : 'Down'} <Money amount={Math.abs(r.mrr - r.mrrAtStart)} currency={r.currency} /> since the month began
            </Text>
            <Text size="sm">
              Renewals declined: {r.failureRate === null ? '—' : `${(r.failureRate * 100).toFixed(1)} %`}; recovered since:{' '}
              {r.recoveryRate === null ? '—' : `${(r.recoveryRate * 100).toFixed(1)} %`}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}

export default function DashboardPage() {
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: async () => unwrap(await api.GET('/api/v1/dashboard')), refetchInterval: 30_000 });
  if (dashboard.error) return <ErrorNotice error={dashboard.error} />;
  const d = dashboard.data;
  if (!d) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Dashboard
      </Title>
      <RevenueThisMonth dayStart={d.dayStart} />
      <Text size="sm">
        Today (UTC on the billing clock) runs from <Time value={d.dayStart} /> to <Time value={d.dayEnd} />.
      </Text>
      <section aria-labelledby="charges-today">
        <Title order={2} size="h4" id="charges-today" mb="xs">
          Charges today by outcome
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Figure label="Succeeded" value={d.chargesToday.succeeded} to="/charges?status=succeeded" />
          <Figure label="Declined" value={d.chargesToday.declined} to="/charges?status=retrying" />
          <Figure label="In flight" value={d.chargesToday.inFlight} to="/charges?status=processing" />
        </SimpleGrid>
        {d.chargesToday.byCurrency.length > 0 && (
          <Table mt="xs" w="auto">
            <caption style={{ position: 'absolute', left: -10000 }}>Charges today by outcome and currency</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Outcome</Table.Th>
                <Table.Th scope="col">Charges</Table.Th>
                <Table.Th scope="col">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.chargesToday.byCurrency.map((o) => (
                <Table.Tr key={`${o.outcome}-${o.currency}`}>
                  <Table.Td>{o.outcome}</Table.Td>
                  <Table.Td>{o.count}</Table.Td>
                  <Table.Td>
                    <Money amount={o.amount} currency={o.currency} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      <section aria-labelledby="subscriptions-by-status">
        <Title order={2} size="h4" id="subscriptions-by-status" mb="xs">
          Subscriptions by status
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
          {Object.entries(d.subscriptionsByStatus).map(([status, n]) => (
            <Figure key={status} label={status} value={n} to={`/subscriptions?status=${status}`} />
          ))}
        </SimpleGrid>
      </section>
      <Group align="flex-start" grow>
        <section aria-labelledby="dunning">
          <Title order={2} size="h4" id="dunning" mb="xs">
            Dunning in progress
          </Title>
          <SimpleGrid cols={2}>
            <Figure label="Waiting for a retry" value={d.dunning.retrying} to="/charges?status=retrying" />
            <Figure label="Waiting for a new card" value={d.dunning.awaitingCard} to="/charges?status=failed" />
          </SimpleGrid>
          {d.dunning.byCurrency.map((c) => (
            <Text key={c.currency} size="sm" mt="xs">
              Outstanding: <Money amount={c.amount} currency={c.currency} />
            </Text>
          ))}
        </section>
        <section aria-labelledby="failing-endpoints">
          <Title order={2} size="h4" id="failing-endpoints" mb="xs">
            Failing webhook endpoints: {d.failingEndpoints.count}
          </Title>
          {d.failingEndpoints.items.length === 0 ? (
            <Text size="sm">Every endpoint answers.</Text>
          ) : (
            <Stack gap={4}>
              {d.failingEndpoints.items.map((e) => (
                <Text key={e.id} size="sm">
                  <Anchor component={Link} to={`/webhook-endpoints/${e.id}`}>
                    {e.url}
                  </Anchor>{' '}
                  — {e.consecutiveFailures} failed attempts in a row{e.enabled ? '' : ' (paused)'}
                </Text>
              ))}
            </Stack>
          )}
        </section>
      </Group>
    </Stack>
  );
}
