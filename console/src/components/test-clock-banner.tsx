import { Group, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { formatUtc } from '../format/time';
import { ActionButton } from './action-button';
import { RunBillingButton } from './run-billing';

const STEPS = ['1h', '1d', '7d', '30d'];

/** The banner's height below and from the small breakpoint. */
export const TEST_CLOCK_BANNER_HEIGHT = { base: 84, sm: 48 };

/** While TEST_CLOCK=true: what the billing clock reads, and a control to move it forward. */
export function TestClockBanner() {
  const { t } = useTranslation();
  const clock = useQuery({ queryKey: ['test-clock'], queryFn: async () => unwrap(await api.GET('/api/v1/test-clock')) });
  const [step, setStep] = useState('1d');
  return (
    // Two rows on a phone (the time, then the control), one from the small breakpoint up; the header's height follows.
    <Group h={{ base: TEST_CLOCK_BANNER_HEIGHT.base, sm: TEST_CLOCK_BANNER_HEIGHT.sm }} px="md" gap="sm" bg="yellow.1" role="region" aria-label={t('testClock.region')} style={{ borderTop: '1px solid var(--mantine-color-yellow-4)', alignContent: 'center', rowGap: 4 }}>
      <Text size="sm" fw={700} visibleFrom="sm">
        {t('testClock.on')}
      </Text>
      <Text size="sm" data-testid="test-clock-now">
        {t('testClock.billingTime', { time: clock.data ? formatUtc(clock.data.now) : '…' })}
      </Text>
      <Select size="xs" w={90} aria-label={t('testClock.advanceBy')} data={STEPS} value={step} onChange={(v) => v && setStep(v)} allowDeselect={false} />
      <ActionButton
        scope="admin"
        label={t('testClock.advance', { step })}
        variant="filled"
        color="dark"
        run={async (key) => unwrap(await api.POST('/api/v1/test-clock', { body: { advance: step }, headers: { 'Idempotency-Key': key } }))}
        done={(r) => t('testClock.done', { time: formatUtc(r.now) })}
        showResult={false}
      />
      <RunBillingButton />
    </Group>
  );
}
