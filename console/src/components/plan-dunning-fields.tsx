import { Group, NumberInput, Radio, Select, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useValueLabel } from '../i18n/value-label';
import type { DraftProblems, DunningDraft, FinalAction, Strategy } from './plan-dunning-draft';

/**
 * A plan's dunning: the strategy (each with a sentence on what it does), then what that strategy takes (smart: the last
 * day of retries; fixed: the ladder), then what happens when it gives up. Shared by the new plan form and the dunning
 * editor, so both ask the same and say the same. `problems` are the form's own checks, `serverErrors` what the daemon
 * refused, each shown on its field.
 */
export function PlanDunningFields({
  value,
  onChange,
  problems,
  serverErrors = {},
}: {
  value: DunningDraft;
  onChange: (change: Partial<DunningDraft>) => void;
  problems: DraftProblems;
  serverErrors?: { maxDays?: string; retryDelays?: string };
}) {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const delaysError = problems.retryDelays ? (problems.retryDelays.key === 'dunningForm.delayError' ? t(problems.retryDelays.key, { delay: problems.retryDelays.delay }) : t(problems.retryDelays.key)) : serverErrors.retryDelays;
  return (
    <Stack gap="sm">
      <Radio.Group label={t('dunningForm.strategy')} value={value.strategy} onChange={(v) => onChange({ strategy: v as Strategy })}>
        <Stack gap="xs" mt={4}>
          <Radio value="smart" label={t('dunningForm.smart')} description={t('dunningForm.smartHelp')} />
          <Radio value="fixed" label={t('dunningForm.fixed')} description={t('dunningForm.fixedHelp')} />
        </Stack>
      </Radio.Group>
      <Group grow align="flex-start" wrap="wrap">
        {value.strategy === 'smart' ? (
          <NumberInput
            label={t('dunningForm.maxDays')}
            description={t('dunningForm.maxDaysHelp')}
            min={1}
            max={90}
            allowDecimal={false}
            value={value.maxDays}
            onChange={(v) => onChange({ maxDays: typeof v === 'number' ? v : '' })}
            error={problems.maxDays ? t(problems.maxDays.key) : serverErrors.maxDays}
            miw={180}
          />
        ) : (
          <TextInput label={t('planNew.retryDelays')} description={t('planNew.retryDelaysHelp')} value={value.retryDelays} onChange={(e) => onChange({ retryDelays: e.currentTarget.value })} error={delaysError} miw={180} />
        )}
        <Select
          label={t('planNew.then')}
          data={(['cancel', 'unpaid'] as const).map((v) => ({ value: v, label: valueLabel('finalAction', v) }))}
          value={value.finalAction}
          onChange={(v) => v && onChange({ finalAction: v as FinalAction })}
          allowDeselect={false}
          miw={160}
        />
      </Group>
    </Stack>
  );
}
