import { Checkbox, Group, MultiSelect, NumberInput, Radio, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { CreateCoupon } from '../api/types';
import { useAllows } from '../api/use-allows';
import { parseMinor } from '../format/amount-input';
import { formatMoney } from '../format/money';
import { endOfDayInOperatorZone, formatTimeIn, operatorZone, todayInOperatorZone } from '../format/time';
import { ActionDialog } from './action-dialog';

type Duration = CreateCoupon['duration'];
const CODE = /^[A-Za-z0-9_-]{3,32}$/;

/**
 * "New coupon": a percentage or an amount off, for once, some periods or forever; optional code, cap, first-time rule,
 * plans it is limited to, and the last day it can be applied (a day in the operator's zone, through its end).
 */
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
  const [planIds, setPlanIds] = useState<string[]>([]);
  const [redeemByDay, setRedeemByDay] = useState('');
  // The plans to choose from need plans:read; without it the coupon is for every plan, as the API's default.
  const mayReadPlans = useAllows('plans:read');
  const plans = useQuery({
    queryKey: ['plans', { status: 'active', all: true }],
    queryFn: async () => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: 'active', limit: 100 } } })),
    enabled: mayReadPlans,
  });
  const redeemBy = redeemByDay ? endOfDayInOperatorZone(redeemByDay) : null;
  const redeemByWrong = redeemByDay !== '' && (redeemBy === null || Date.parse(redeemBy) <= Date.now());
  const amount = /^[A-Z]{3}$/.test(currency) ? parseMinor(amountText, currency) : null;
  const body: CreateCoupon = {
    name: name.trim(),
    duration,
    ...(code.trim() ? { code: code.trim() } : {}),
    ...(kind === 'percent' ? { percentOff: Number(percent) } : { amountOff: amount ?? 0, currency }),
    ...(duration === 'repeating' ? { durationPeriods: Number(periods) } : {}),
    ...(cap !== '' ? { maxRedemptions: Number(cap) } : {}),
    ...(firstTimeOnly ? { firstTimeOnly } : {}),
    ...(planIds.length ? { appliesToPlans: planIds } : {}),
    ...(redeemBy ? { redeemBy } : {}),
  };
  const valid =
    body.name.length >= 1 &&
    (code.trim() === '' || CODE.test(code.trim())) &&
    (kind === 'percent' ? Number.isInteger(Number(percent)) && Number(percent) >= 1 && Number(percent) <= 100 : amount !== null && amount >= 1) &&
    !redeemByWrong &&
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
        setPlanIds([]);
        setRedeemByDay('');
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
      {mayReadPlans && (
        <MultiSelect
          label={t('coupons.new.plans')}
          description={t('coupons.new.plansHelp')}
          data={(plans.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name}: ${formatMoney(p.amount, p.currency)}` }))}
          value={planIds}
          onChange={setPlanIds}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <TextInput
        type="date"
        label={t('coupons.new.redeemBy')}
        description={redeemBy && !redeemByWrong ? t('coupons.new.redeemByUntil', { time: formatTimeIn(redeemBy, operatorZone()), zone: operatorZone() }) : t('coupons.new.redeemByHelp', { zone: operatorZone() })}
        min={todayInOperatorZone()}
        value={redeemByDay}
        onChange={(e) => setRedeemByDay(e.currentTarget.value)}
        error={redeemByWrong ? t('coupons.new.redeemByError') : undefined}
      />
      <Checkbox label={t('coupons.new.firstTimeOnly')} checked={firstTimeOnly} onChange={(e) => setFirstTimeOnly(e.currentTarget.checked)} />
    </ActionDialog>
  );
}
