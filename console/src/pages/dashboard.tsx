import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Money, Time } from '../components/values';
import { formatRate } from '../format/money';
import { useValueLabel } from '../i18n/value-label';
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
  const { t } = useTranslation();
  const percent = (rate: number | null | undefined) => {
    const value = formatRate(rate);
    return value === null ? '—' : t('common.percent', { value });
  };
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
        {t('dashboard.revenueThisMonth')}{' '}
        <Anchor component={Link} to="/revenue" size="sm" fw={400}>
          {t('dashboard.everyMonth')}
        </Anchor>
      </Title>
      {report.data && rows.length === 0 && <Text size="sm">{t('dashboard.noRevenue')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {rows.map((r) => (
          <Card key={r.currency} withBorder padding="sm">
            <Text size="sm">{t('dashboard.mrr', { currency: r.currency })}</Text>
            <Text fz={28} fw={700}>
              <Money amount={r.mrr} currency={r.currency} />
            </Text>
            <Text size="sm">
              <Trans i18nKey={r.mrr >= r.mrrAtStart ? 'dashboard.up' : 'dashboard.down'} components={{ amount: <Money amount={Math.abs(r.mrr - r.mrrAtStart)} currency={r.currency} /> }} />
            </Text>
            <Text size="sm">
              {t('dashboard.renewals', { failure: percent(r.failureRate), recovery: percent(r.recoveryRate) })}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: async () => unwrap(await api.GET('/api/v1/dashboard')), refetchInterval: 30_000 });
  if (dashboard.error) return <ErrorNotice error={dashboard.error} />;
  const d = dashboard.data;
  if (!d) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('dashboard.title')}
      </Title>
      <RevenueThisMonth dayStart={d.dayStart} />
      <Text size="sm">
        <Trans i18nKey="dashboard.today" components={{ from: <Time value={d.dayStart} />, to: <Time value={d.dayEnd} /> }} />
      </Text>
      <section aria-labelledby="charges-today">
        <Title order={2} size="h4" id="charges-today" mb="xs">
          {t('dashboard.chargesToday')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Figure label={t('dashboard.succeeded')} value={d.chargesToday.succeeded} to={todays('succeeded', d.dayStart, d.dayEnd)} />
          <Figure label={t('dashboard.declined')} value={d.chargesToday.declined} to={todays('declined', d.dayStart, d.dayEnd)} />
          <Figure label={t('dashboard.inFlight')} value={d.chargesToday.inFlight} to="/charges?status=processing" />
        </SimpleGrid>
        {d.chargesToday.byCurrency.length > 0 && (
          <Table mt="xs" w="auto">
            <caption style={{ position: 'absolute', left: -10000 }}>{t('dashboard.byCurrencyCaption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('dashboard.outcome')}</Table.Th>
                <Table.Th scope="col">{t('dashboard.charges')}</Table.Th>
                <Table.Th scope="col">{t('dashboard.amount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.chargesToday.byCurrency.map((o) => (
                <Table.Tr key={`${o.outcome}-${o.currency}`}>
                  <Table.Td>{valueLabel('status', o.outcome)}</Table.Td>
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
          {t('dashboard.subscriptionsByStatus')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
          {Object.entries(d.subscriptionsByStatus).map(([status, n]) => (
            <Figure key={status} label={valueLabel('status', status)} value={n} to={`/subscriptions?status=${status}`} />
          ))}
        </SimpleGrid>
      </section>
      <Group align="flex-start" grow>
        <section aria-labelledby="dunning">
          <Title order={2} size="h4" id="dunning" mb="xs">
            {t('dashboard.dunning')}
          </Title>
          <SimpleGrid cols={2}>
            <Figure label={t('dashboard.waitingRetry')} value={d.dunning.retrying} to="/charges?status=retrying" />
            <Figure label={t('dashboard.waitingCard')} value={d.dunning.awaitingCard} to="/charges?status=failed" />
          </SimpleGrid>
          {d.dunning.byCurrency.map((c) => (
            <Text key={c.currency} size="sm" mt="xs">
              <Trans i18nKey="dashboard.outstanding" components={{ amount: <Money amount={c.amount} currency={c.currency} /> }} />
            </Text>
          ))}
        </section>
        <section aria-labelledby="failing-endpoints">
          <Title order={2} size="h4" id="failing-endpoints" mb="xs">
            {t('dashboard.failingEndpoints', { count: d.failingEndpoints.count })}
          </Title>
          {d.failingEndpoints.items.length === 0 ? (
            <Text size="sm">{t('dashboard.everyEndpointAnswers')}</Text>
          ) : (
            <Stack gap={4}>
              {d.failingEndpoints.items.map((e) => (
                <Text key={e.id} size="sm">
                  <Anchor component={Link} to={`/webhook-endpoints/${e.id}`}>
                    {e.url}
                  </Anchor>{' '}
                  {t('dashboard.failedInARow', { count: e.consecutiveFailures })}
                  {e.enabled ? '' : t('dashboard.pausedSuffix')}
                </Text>
              ))}
            </Stack>
          )}
        </section>
      </Group>
    </Stack>
  );
}

/** The charges whose latest attempt today ended so: the same charges the figure counts, hard declines included. */
function todays(outcome: 'succeeded' | 'declined', dayStart: string, dayEnd: string): string {
  return `/charges?${new URLSearchParams({ lastAttempt: outcome, attemptedAfter: dayStart, attemptedBefore: dayEnd }).toString()}`;
}
