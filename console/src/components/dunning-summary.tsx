import { useTranslation } from 'react-i18next';
import type { Plan } from '../api/types';
import { useValueLabel } from '../i18n/value-label';

/** A plan's dunning in one line: "smart, up to 21 days, then cancel" or "retry after 1d, 3d, then unpaid". */
export function DunningSummary({ dunning }: { dunning: Plan['dunning'] }) {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const action = valueLabel('finalAction', dunning.finalAction);
  return (
    <span data-strategy={dunning.strategy}>
      {dunning.strategy === 'smart' ? t('plan.smart', { days: t('interval.day', { count: dunning.maxDays ?? 0 }), action }) : t('plan.fixed', { delays: dunning.retryDelays?.join(', ') || '—', action })}
    </span>
  );
}
