import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Plan } from '../api/types';
import { useAllows } from '../api/use-allows';
import { DunningSummary } from '../components/dunning-summary';
import { ErrorNotice } from '../components/error-notice';
import { PagedTable } from '../components/paged-table';
import { PlanDunningDialog } from '../components/plan-dunning-dialog';
import { SmartDunningRules } from '../components/smart-dunning-rules';
import { IdLink } from '../components/values';

/**
 * Dunning: the smart strategy's rules (charges:read; from the daemon's environment, so shown, not edited) and each
 * active plan's own dunning, which a plans:write credential changes here (the API's one writable dunning setting).
 */
export default function DunningPage() {
  const { t } = useTranslation();
  const mayReadPlans = useAllows('plans:read');
  const rules = useQuery({ queryKey: ['dunning-rules'], queryFn: async () => unwrap(await api.GET('/api/v1/dunning/rules')) });
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('dunningRules.title')}
      </Title>
      <section aria-labelledby="smart-rules">
        <Stack>
          <Title order={2} size="h4" id="smart-rules">
            {t('dunningRules.smartTitle')}
          </Title>
          <Text size="sm">{t('dunningRules.fromEnvironment')}</Text>
          {rules.error && <ErrorNotice error={rules.error} />}
          {rules.data && <SmartDunningRules rules={rules.data} />}
        </Stack>
      </section>
      <section aria-labelledby="plans-dunning">
        <Stack>
          <Title order={2} size="h4" id="plans-dunning">
            {t('dunningRules.plansTitle')}
          </Title>
          {mayReadPlans ? (
            <PagedTable<Plan>
              caption={t('dunningRules.plansCaption')}
              queryKey={['plans', { status: 'active' }]}
              fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: 'active', cursor, limit: 25 } } }))}
              rowKey={(p) => p.id}
              empty={t('plans.empty')}
              columns={[
                { header: t('col.plan'), cell: (p) => <IdLink to={`/plans/${p.id}`} id={p.id} label={p.name} /> },
                { header: t('plan.dunning'), cell: (p) => <DunningSummary dunning={p.dunning} /> },
                { header: t('dunningRules.col.actions'), cell: (p) => <PlanDunningDialog plan={p} /> },
              ]}
            />
          ) : (
            <Text size="sm">{t('dunningRules.plansNotAllowed')}</Text>
          )}
        </Stack>
      </section>
    </Stack>
  );
}
