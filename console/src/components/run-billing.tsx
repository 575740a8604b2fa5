import { Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ActionButton } from './action-button';

/**
 * "Run billing now" beside the test clock (POST /api/v1/billing/run, scope admin): one billing pass at once rather than
 * at the scheduler's next, so a moved clock's renewals and retries happen while the operator watches. What the pass
 * did is said beside it (from the small breakpoint up; a phone's banner has no room).
 */
export function RunBillingButton() {
  const { t } = useTranslation();
  const [said, setSaid] = useState<string | null>(null);
  return (
    <>
      <ActionButton
        scope="admin"
        label={t('billingRun.label')}
        variant="outline"
        color="dark"
        run={async (key) => unwrap(await api.POST('/api/v1/billing/run', { headers: { 'Idempotency-Key': key } }))}
        done={(r) => {
          const text = t('billingRun.done', { count: r.created, due: r.due, succeeded: r.succeeded, declined: r.declined });
          setSaid(text);
          return text;
        }}
        showResult={false}
      />
      {said && (
        <Text size="xs" role="status" visibleFrom="sm" data-testid="billing-run-result">
          {said}
        </Text>
      )}
    </>
  );
}
