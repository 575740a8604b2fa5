import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Charge } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { ChargesTable } from '../components/lists';
import { Time } from '../components/values';

const STATUSES = ['pending', 'processing', 'succeeded', 'retrying', 'failed', 'canceled', 'skipped'] as const;

export default function ChargesPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  // The dashboard's figures of the day link here with the latest attempt's outcome and the day's bounds.
  const [lastAttempt] = useFilter('lastAttempt');
  const [attemptedAfter] = useFilter('attemptedAfter');
  const [attemptedBefore] = useFilter('attemptedBefore');
  const outcome = lastAttempt === 'succeeded' || lastAttempt === 'declined' ? lastAttempt : undefined;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('charges.title')}
      </Title>
      {outcome && attemptedAfter && attemptedBefore && (
        <Text size="sm">
          <Trans
            i18nKey="charges.lastAttempt"
            values={{ outcome: t(`charges.outcome_${outcome}`) }}
            components={{ from: <Time value={attemptedAfter} />, to: <Time value={attemptedBefore} /> }}
          />{' '}
          <Anchor component={Link} to="/charges">
            {t('charges.showAll')}
          </Anchor>
        </Text>
      )}
      <StatusFilter label={t('charges.status')} values={STATUSES} value={status} onChange={setStatus} />
      <ChargesTable filter={{ status: status as Charge['status'] | undefined, lastAttempt: outcome, attemptedAfter, attemptedBefore }} />
    </Stack>
  );
}
