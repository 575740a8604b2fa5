import { ActionIcon, Button, Checkbox, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { CreatePlan } from '../api/types';
import { useTaxRates } from '../api/use-tax-rates';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { draftProblems, NEW_PLAN_DUNNING, toPlanDunning, type DunningDraft } from '../components/plan-dunning-draft';
import { PlanDunningFields } from '../components/plan-dunning-fields';
import { Money } from '../components/values';
import { useValueLabel } from '../i18n/value-label';

type Line = { product: string; price: number | ''; quantity: number | ''; taxRate: string };
const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/**
 * A new plan: its invoice lines (prices in minor units, shown formatted as typed; each with a VAT rate the daemon allows,
 * the first of BILLING_TAX_RATES unless chosen), period, trial and its own dunning (smart or fixed).
 */
export default function NewPlanPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const navigate = useNavigate();
  const taxRates = useTaxRates();
  // The API reports the rates allowed, not which is standard: the first of them, as the daemon's operator ordered them.
  const defaultRate = taxRates[0] ?? '';
  const [name, setName] = useState('');
  const [product, setProduct] = useState('');
  const [currency, setCurrency] = useState('RUB');
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>('month');
  const [intervalCount, setIntervalCount] = useState<number | ''>(1);
  const [trialDays, setTrialDays] = useState<number | ''>(0);
  const [lines, setLines] = useState<Line[]>([{ product: '', price: '', quantity: 1, taxRate: defaultRate }]);
  const [ownDunning, setOwnDunning] = useState(false);
  const [dunning, setDunning] = useState<DunningDraft>(NEW_PLAN_DUNNING);
  const dunningProblems = draftProblems(dunning);
  const create = useWrite(
    async (body: CreatePlan, key: string) => unwrap(await api.POST('/api/v1/plans', { body, headers: { 'Idempotency-Key': key } })),
    (plan) => navigate(`/plans/${plan.id}`),
  );
  const total = lines.reduce((sum, l) => sum + (Number(l.price) || 0) * (Number(l.quantity) || 0), 0);
  const setLine = (i: number, change: Partial<Line>) => setLines((all) => all.map((l, j) => (j === i ? { ...l, ...change } : l)));
  const submit = () => {
    const body: CreatePlan = {
      name,
      product,
      currency,
      interval,
      intervalCount: Number(intervalCount) || 1,
      trialDays: Number(trialDays) || 0,
      lines: lines.map((l) => ({ product: l.product, price: Number(l.price), quantity: Number(l.quantity) || 1, ...(l.taxRate ? { taxRate: l.taxRate } : {}) })),
      ...(ownDunning && { dunning: toPlanDunning(dunning) }),
    };
    if (ownDunning && (dunningProblems.maxDays || dunningProblems.retryDelays)) return;
    create.send(body);
  };
  return (
    <Stack maw={760}>
      <Title order={1} size="h2">
        {t('planNew.title')}
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Group grow>
            <TextInput label={t('planNew.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} required />
            <TextInput label={t('planNew.product')} value={product} onChange={(e) => setProduct(e.currentTarget.value)} required />
          </Group>
          <Group grow>
            <TextInput label={t('planNew.currency')} description={t('planNew.currencyHelp')} value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} required />
            <Select label={t('planNew.billedEvery')} data={INTERVALS.map((value) => ({ value, label: valueLabel('intervalName', value) }))} value={interval} onChange={(v) => v && setInterval(v as (typeof INTERVALS)[number])} allowDeselect={false} />
            <NumberInput label={t('planNew.intervalCount')} min={1} value={intervalCount} onChange={(v) => setIntervalCount(typeof v === 'number' ? v : '')} />
            <NumberInput label={t('planNew.trialDays')} min={0} value={trialDays} onChange={(v) => setTrialDays(typeof v === 'number' ? v : '')} />
          </Group>
          <fieldset style={{ border: 'none', padding: 0, margin: 0 }}>
            <legend>
              <Text fw={700}>{t('planNew.lines')}</Text>
            </legend>
            <Stack gap="xs">
              {lines.map((l, i) => (
                <Group key={i} align="flex-end">
                  <TextInput label={t('planNew.lineProduct', { n: i + 1 })} value={l.product} onChange={(e) => setLine(i, { product: e.currentTarget.value })} required />
                  <NumberInput
                    label={t('planNew.linePrice', { n: i + 1 })}
                    min={1}
                    allowDecimal={false}
                    value={l.price}
                    onChange={(v) => setLine(i, { price: typeof v === 'number' ? v : '' })}
                    description={typeof l.price === 'number' && /^[A-Z]{3}$/.test(currency) ? <Money amount={l.price} currency={currency} /> : ' '}
                    required
                  />
                  <NumberInput label={t('planNew.lineQuantity', { n: i + 1 })} min={1} allowDecimal={false} w={140} value={l.quantity} onChange={(v) => setLine(i, { quantity: typeof v === 'number' ? v : '' })} />
                  <Select label={t('planNew.lineTaxRate', { n: i + 1 })} data={taxRates} value={l.taxRate || null} onChange={(v) => v && setLine(i, { taxRate: v })} allowDeselect={false} w={120} />
                  <ActionIcon variant="default" size="lg" aria-label={t('planNew.removeLine', { n: i + 1 })} disabled={lines.length === 1} onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button variant="default" size="xs" onClick={() => setLines((all) => [...all, { product: '', price: '', quantity: 1, taxRate: defaultRate }])}>
                  {t('planNew.addLine')}
                </Button>
                <Text size="sm">
                  <Trans i18nKey="planNew.eachPeriod" components={{ total: /^[A-Z]{3}$/.test(currency) ? <Money amount={total} currency={currency} /> : <>{total}</> }} />
                </Text>
              </Group>
            </Stack>
          </fieldset>
          <Checkbox label={t('planNew.ownDunning')} checked={ownDunning} onChange={(e) => setOwnDunning(e.currentTarget.checked)} />
          {ownDunning && <PlanDunningFields value={dunning} onChange={(change) => setDunning((d) => ({ ...d, ...change }))} problems={dunningProblems} />}
          {create.mutation.error && <ErrorNotice error={create.mutation.error} />}
          <Group>
            <Button type="submit" loading={create.mutation.isPending}>
              {t('planNew.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
