import { Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { RevenueInterval } from '../api/types';
import { ErrorNotice } from '../components/error-notice';
import { useFilter } from '../components/filters';
import { intervalLabel, RevenueChart } from '../components/revenue-chart';
import { Money } from '../components/values';
import { formatRate } from '../format/money';
import { type Interval, RANGES, reportRange } from '../format/report-range';

const COLUMNS = ['starts', 'mrr', 'new', 'expansion', 'contraction', 'churned', 'reactivated', 'subscribersChurned', 'failureRate', 'recoveryRate', 'refunds'] as const;

function RevenueTable({ rows, currency, interval }: { rows: RevenueInterval[]; currency: string; interval: Interval }) {
  const { t } = useTranslation();
  const percent = (rate: number | null | undefined) => {
    const value = formatRate(rate);
    return value === null ? '—' : t('common.percent', { value });
  };
  const by = t(`revenue.by.${interval}`);
  const money = (minor: number) => <Money amount={minor} currency={currency} />;
  return (
    // Focusable, so a keyboard can scroll it on a narrow screen (it holds no link of its own).
    <Table.ScrollContainer minWidth={980} type="native" tabIndex={0} role="region" aria-label={t('revenue.tableRegion', { currency, interval: by })}>
      <Table striped verticalSpacing="xs">
        <caption style={{ position: 'absolute', left: -10000 }}>
          {t('revenue.caption', { currency, interval: by })}
        </caption>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((h) => (
              <Table.Th key={h} scope="col">
                {t(`revenue.col.${h}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.start}>
              <Table.Th scope="row" fw={400}>
                {intervalLabel(r.start)}
              </Table.Th>
              <Table.Td>{money(r.mrr)}</Table.Td>
              <Table.Td>{money(r.movements.new)}</Table.Td>
              <Table.Td>{money(r.movements.expansion)}</Table.Td>
              <Table.Td>{money(r.movements.contraction)}</Table.Td>
              <Table.Td>{money(r.movements.churned)}</Table.Td>
              <Table.Td>{money(r.movements.reactivated)}</Table.Td>
              <Table.Td>
                {t('revenue.churnedCell', { voluntary: r.subscribersChurned.voluntary, involuntary: r.subscribersChurned.involuntary })}
              </Table.Td>
              <Table.Td>{percent(r.failureRate)}</Table.Td>
              <Table.Td>{percent(r.recoveryRate)}</Table.Td>
              <Table.Td>
                {money(r.refunds)} ({r.refundCount})
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** MRR over time, its movements, failure and recovery: the figures of GET /api/v1/reports/revenue, as a chart and a table. */
export default function RevenuePage() {
  const { t } = useTranslation();
  const [intervalFilter, setInterval] = useFilter('interval');
  const [currencyFilter, setCurrency] = useFilter('currency');
  const interval: Interval = intervalFilter === 'day' || intervalFilter === 'week' ? intervalFilter : 'month';
  // "Today" is the billing clock's (the test clock's when it is on), as on the dashboard.
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: async () => unwrap(await api.GET('/api/v1/dashboard')) });
  const range = dashboard.data ? reportRange(dashboard.data.dayStart, interval, RANGES[interval].count) : undefined;
  const report = useQuery({
    queryKey: ['revenue', interval, range?.from, range?.to],
    enabled: range !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/reports/revenue', { params: { query: { interval, from: range?.from ?? '', to: range?.to ?? '' } } })),
  });
  const error = dashboard.error ?? report.error;
  const items = report.data?.items ?? [];
  const currencies = [...new Set(items.map((r) => r.currency))].sort();
  const currency = currencyFilter && currencies.includes(currencyFilter) ? currencyFilter : currencies[0];
  const rows = items.filter((r) => r.currency === currency);
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('revenue.title')}
      </Title>
      <Group align="flex-end">
        <Select
          label={t('revenue.intervals')}
          w={260}
          data={(Object.keys(RANGES) as Interval[]).map((value) => ({ value, label: t(`revenue.range.${value}`) }))}
          value={interval}
          onChange={(v) => setInterval(v === 'month' ? undefined : (v ?? undefined))}
          allowDeselect={false}
        />
        {currencies.length > 1 && <Select label={t('revenue.currency')} w={120} data={currencies} value={currency} onChange={(v) => setCurrency(v ?? undefined)} allowDeselect={false} />}
      </Group>
      {error && <ErrorNotice error={error} />}
      {report.data && !currency && <Text>{t('revenue.noRevenue')}</Text>}
      {currency && rows.length > 0 && (
        <>
          <Text size="sm">
            {t('revenue.explain', { currency })}
          </Text>
          <RevenueChart rows={rows} currency={currency} />
          <RevenueTable rows={rows} currency={currency} interval={interval} />
        </>
      )}
    </Stack>
  );
}
