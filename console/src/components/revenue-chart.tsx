import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RevenueInterval } from '../api/types';
import { formatMoney } from '../format/money';
import { formatDay } from '../format/time';

/** Tooltip text in the body colour: the series' own colours are too light to read as text on white. */
const TOOLTIP_TEXT = { color: '#212529' };

/** The interval's label on an axis: its start date (UTC), in the console's language. */
export const intervalLabel = (start: string) => formatDay(start);

/**
 * MRR at the end of each interval, and its movements (what grew it above the axis, what shrank it below). A picture
 * of the table that follows it, which carries the same figures for anyone who cannot see the chart.
 */
export function RevenueChart({ rows, currency }: { rows: RevenueInterval[]; currency: string }) {
  const { t } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency);
  const data = rows.map((r) => ({
    label: intervalLabel(r.start),
    mrr: r.mrr,
    new: r.movements.new,
    expansion: r.movements.expansion,
    reactivated: r.movements.reactivated,
    contraction: -r.movements.contraction,
    churned: -r.movements.churned,
  }));
  const axis = { fontSize: 12 };
  return (
    <div aria-hidden="true">
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ left: 24, right: 16, top: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} />
          <YAxis tickFormatter={money} tick={axis} width={96} />
          <Tooltip formatter={(v) => money(Number(v))} itemStyle={TOOLTIP_TEXT} />
          <Line type="linear" dataKey="mrr" name={t('revenue.mrrSeries')} stroke="#1c7ed6" strokeWidth={2} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} stackOffset="sign" margin={{ left: 24, right: 16, top: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={axis} />
          <YAxis tickFormatter={money} tick={axis} width={96} />
          <Tooltip formatter={(v) => money(Math.abs(Number(v)))} itemStyle={TOOLTIP_TEXT} />
          <Legend />
          <ReferenceLine y={0} stroke="#495057" />
          <Bar dataKey="new" name={t('revenue.col.new')} stackId="m" fill="#2f9e44" isAnimationActive={false} />
          <Bar dataKey="expansion" name={t('revenue.col.expansion')} stackId="m" fill="#66a80f" isAnimationActive={false} />
          <Bar dataKey="reactivated" name={t('revenue.col.reactivated')} stackId="m" fill="#1098ad" isAnimationActive={false} />
          <Bar dataKey="contraction" name={t('revenue.col.contraction')} stackId="m" fill="#f08c00" isAnimationActive={false} />
          <Bar dataKey="churned" name={t('revenue.col.churned')} stackId="m" fill="#e03131" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
