import { Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { components } from '../api/openapi.gen';
import { Field } from './values';
import { RowsTable } from './rows-table';

type Rules = components['schemas']['DunningRules'];
type ClassRule = Rules['classes'][number];

/** "09:00": an hour of the subscription's own day, in the 24-hour form both languages use here. */
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * The smart strategy's rules as the daemon applies them (GET /api/v1/dunning/rules): the calendar it times retries by,
 * then each class of decline with its codes, its timing and its own budget of delays. Read-only: they come from the
 * daemon's environment, which is said above them.
 */
export function SmartDunningRules({ rules }: { rules: Rules }) {
  const { t } = useTranslation();
  const timing = (c: ClassRule) => t(`dunningRules.timings.${c.timing as 'payday' | 'spaced' | 'backoff' | 'await_card'}`);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <Field label={t('dunningRules.defaultStrategy')}>{t(`dunningForm.${rules.defaultStrategy as 'smart' | 'fixed'}`)}</Field>
        <Field label={t('dunningRules.paydays')}>{t('dunningRules.paydaysValue', { days: rules.paydays.join(', '), window: t('interval.day', { count: rules.paydayWindowDays }) })}</Field>
        <Field label={t('dunningRules.morningHour')}>{hour(rules.morningHour)}</Field>
        <Field label={t('dunningRules.allowedHours')}>{t('dunningRules.allowedHoursValue', { from: hour(rules.allowedFromHour), until: hour(rules.allowedUntilHour) })}</Field>
        <Field label={t('dunningRules.cap')}>{t('dunningRules.capValue', { count: rules.maxAttemptsPer30Days })}</Field>
        <Field label={t('dunningRules.defaultMaxDays')}>{t('interval.day', { count: rules.defaultMaxDays })}</Field>
      </SimpleGrid>
      <RowsTable<ClassRule>
        caption={t('dunningRules.classesCaption')}
        rows={rules.classes}
        rowKey={(c) => c.class}
        columns={[
          { header: t('dunningRules.col.class'), cell: (c) => <Code>{c.class}</Code> },
          { header: t('dunningRules.col.codes'), cell: (c) => (c.codes.length ? <Code>{c.codes.join(' ')}</Code> : t('dunningRules.otherCodes')) },
          { header: t('dunningRules.col.timing'), cell: timing },
          { header: t('dunningRules.col.delays'), cell: (c) => (c.delays.length ? c.delays.join(', ') : '—') },
          { header: t('dunningRules.col.then'), cell: (c) => (c.thenClass ? <Code>{c.thenClass}</Code> : '—') },
        ]}
      />
      <Text size="sm">{t('dunningRules.matchedInOrder')}</Text>
    </Stack>
  );
}
