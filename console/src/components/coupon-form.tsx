import { Checkbox, Group, NumberInput, Radio, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { CreateCoupon } from '../api/types';
import { parseMinor } from '../format/amount-input';
import { ActionDialog } from './action-dialog';

type Duration = CreateCoupon['duration'];
const CODE = /^[A-Za-z0-9_-]{3,32}$/;

/** "New coupon": a percentage or an amount off, for once, some periods or forever; optional code, cap and first-time rule. */
export function NewCouponDialog() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [percent, setPercent] = useState<number | string>(10);
  const [amountText, setAmountText] = useState('');
  const [currency, setCurrency] = useState('RUB');
  const [duration, setDuration] = useState<Duration>('once');
  const [periods, setPeriods] = useState<number | string>(3);
  const [cap, setCap] = useState<number | string>('');
  const [firstTimeOnly, setFirstTimeOnly] = useState(false);
  const amount = /^[A-Z]{3}$/.test(currency) ? parseMinor(amountText, currency) : null;
  const body: CreateCoupon = {
    name: name.trim(),
    duration,
    ...(code.trim() ? { code: code.trim() } : {}),
    ...(kind === 'percent' ? { percentOff: Number(percent) } : { amountOff: amount ?? 0, currency }),
    ...(duration === 'repeating' ? { durationPeriods: Number(periods) } : {}),
    ...(cap !== '' ? { maxRedemptions: Number(cap) } : {}),
    ...(firstTimeOnly ? { firstTimeOnly } : {}),
  };
  const valid =
    body.name.length >= 1 &&
    (code.trim() === '' || CODE.test(code.trim())) &&
    (kind === 'percent' ? Number.isInteger(Number(percent)) && Number(percent) >= 1 && Number(percent) <= 100 : amount !== null && amount >= 1) &&
    (duration !== 'repeating' || (Number.isInteger(Number(periods)) && Number(periods) >= 1 && Number(periods) <= 120));
  return (
    <ActionDialog
      scope="coupons:write"
      label={t('coupons.new.label')}
      title={t('coupons.new.title')}
      confirmLabel={t('coupons.new.confirm')}
      ready={valid}
      onOpen={() => {
        setCode('');
        setName('');
      }}
      run={async (key) => unwrap(await api.POST('/api/v1/coupons', { body, headers: { 'Idempotency-Key': key } }))}
      done={(c) => t('coupons.new.done', { code: c.code })}
    >
      <TextInput label={t('coupons.new.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} required data-autofocus />
      <TextInput
        label={t('coupons.new.code')}
        description={t('coupons.new.codeHelp')}
        value={code}
        onChange={(e) => setCode(e.currentTarget.value)}
        error={code.trim() !== '' && !CODE.test(code.trim()) ? t('coupons.new.codeError') : undefined}
        autoComplete="off"
      />
      <Radio.Group label={t('coupons.new.kind')} value={kind} onChange={(v) => setKind(v as 'percent' | 'amount')}>
        <Group mt={4}>
          <Radio value="percent" label={t('coupons.new.percent')} />
          <Radio value="amount" label={t('coupons.new.amount')} />
        </Group>
      </Radio.Group>
      {kind === 'percent' ? (
        <NumberInput label={t('coupons.new.percentOff')} min={1} max={100} allowDecimal={false} value={percent} onChange={setPercent} />
      ) : (
        <Group grow>
          <TextInput label={t('coupons.new.amountOff')} inputMode="decimal" value={amountText} onChange={(e) => setAmountText(e.currentTarget.value)} />
          <TextInput label={t('coupons.new.currency')} value={currency} maxLength={3} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} />
        </Group>
      )}
      <Select
        label={t('coupons.new.duration')}
        data={(['once', 'repeating', 'forever'] as const).map((d) => ({ value: d, label: t(`coupons.durations.${d}`) }))}
        value={duration}
        onChange={(v) => v && setDuration(v as Duration)}
        allowDeselect={false}
      />
      {duration === 'repeating' && <NumberInput label={t('coupons.new.periods')} min={1} max={120} allowDecimal={false} value={periods} onChange={setPeriods} />}
      <NumberInput label={t('coupons.new.cap')} description={t('coupons.new.capHelp')} min={1} allowDecimal={false} value={cap} onChange={setCap} />
      <Checkbox label={t('coupons.new.firstTimeOnly')} checked={firstTimeOnly} onChange={(e) => setFirstTimeOnly(e.currentTarget.checked)} />
    </ActionDialog>
  );
}
