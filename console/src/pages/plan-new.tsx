import { ActionIcon, Button, Checkbox, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { CreatePlan } from '../api/types';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { Money } from '../components/values';
import { useValueLabel } from '../i18n/value-label';

type Line = { product: string; price: number | ''; quantity: number | '' };
const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/** A new plan: its invoice lines (prices in minor units, shown formatted as typed), period, trial and own dunning ladder. */
export default function NewPlanPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [product, setProduct] = useState('');
  const [currency, setCurrency] = useState('RUB');
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>('month');
  const [intervalCount, setIntervalCount] = useState<number | ''>(1);
  const [trialDays, setTrialDays] = useState<number | ''>(0);
  const [lines, setLines] = useState<Line[]>([{ product: '', price: '', quantity: 1 }]);
  const [ownDunning, setOwnDunning] = useState(false);
  const [retryDelays, setRetryDelays] = useState('1d, 3d, 7d');
  const [finalAction, setFinalAction] = useState<'cancel' | 'unpaid'>('cancel');
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
      lines: lines.map((l) => ({ product: l.product, price: Number(l.price), quantity: Number(l.quantity) || 1 })),
      ...(ownDunning && {
        dunning: {
          retryDelays: retryDelays
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean),
          finalAction,
        },
      }),
    };
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
                  <ActionIcon variant="default" size="lg" aria-label={t('planNew.removeLine', { n: i + 1 })} disabled={lines.length === 1} onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button variant="default" size="xs" onClick={() => setLines((all) => [...all, { product: '', price: '', quantity: 1 }])}>
                  {t('planNew.addLine')}
                </Button>
                <Text size="sm">
                  <Trans i18nKey="planNew.eachPeriod" components={{ total: /^[A-Z]{3}$/.test(currency) ? <Money amount={total} currency={currency} /> : <>{total}</> }} />
                </Text>
              </Group>
            </Stack>
          </fieldset>
          <Checkbox label={t('planNew.ownDunning')} checked={ownDunning} onChange={(e) => setOwnDunning(e.currentTarget.checked)} />
          {ownDunning && (
            <Group grow>
              <TextInput label={t('planNew.retryDelays')} description={t('planNew.retryDelaysHelp')} value={retryDelays} onChange={(e) => setRetryDelays(e.currentTarget.value)} />
              <Select label={t('planNew.then')} data={(['cancel', 'unpaid'] as const).map((value) => ({ value, label: valueLabel('finalAction', value) }))} value={finalAction} onChange={(v) => v && setFinalAction(v as 'cancel' | 'unpaid')} allowDeselect={false} />
            </Group>
          )}
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
