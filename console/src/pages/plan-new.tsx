import { ActionIcon, Button, Checkbox, Group, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import type { CreatePlan } from '../api/types';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { Money } from '../components/values';

type Line = { product: string; price: number | ''; quantity: number | '' };
const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/** A new plan: its invoice lines (prices in minor units, shown formatted as typed), period, trial and own dunning ladder. */
export default function NewPlanPage() {
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
        New plan
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Group grow>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
            <TextInput label="Product on the invoice" value={product} onChange={(e) => setProduct(e.currentTarget.value)} required />
          </Group>
          <Group grow>
            <TextInput label="Currency" description="ISO 4217, e.g. RUB" value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} required />
            <Select label="Billed every" data={[...INTERVALS]} value={interval} onChange={(v) => v && setInterval(v as (typeof INTERVALS)[number])} allowDeselect={false} />
            <NumberInput label="Intervals per period" min={1} value={intervalCount} onChange={(v) => setIntervalCount(typeof v === 'number' ? v : '')} />
            <NumberInput label="Trial days" min={0} value={trialDays} onChange={(v) => setTrialDays(typeof v === 'number' ? v : '')} />
          </Group>
          <fieldset style={{ border: 'none', padding: 0, margin: 0 }}>
            <legend>
              <Text fw={700}>Invoice lines (prices in minor units)</Text>
            </legend>
            <Stack gap="xs">
              {lines.map((l, i) => (
                <Group key={i} align="flex-end">
                  <TextInput label={`Line ${i + 1} product`} value={l.product} onChange={(e) => setLine(i, { product: e.currentTarget.value })} required />
                  <NumberInput
                    label={`Line ${i + 1} price`}
                    min={1}
                    allowDecimal={false}
                    value={l.price}
                    onChange={(v) => setLine(i, { price: typeof v === 'number' ? v : '' })}
                    description={typeof l.price === 'number' && /^[A-Z]{3}$/.test(currency) ? <Money amount={l.price} currency={currency} /> : ' '}
                    required
                  />
                  <NumberInput label={`Line ${i + 1} quantity`} min={1} allowDecimal={false} w={140} value={l.quantity} onChange={(v) => setLine(i, { quantity: typeof v === 'number' ? v : '' })} />
                  <ActionIcon variant="default" size="lg" aria-label={`Remove line ${i + 1}`} disabled={lines.length === 1} onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button variant="default" size="xs" onClick={() => setLines((all) => [...all, { product: '', price: '', quantity: 1 }])}>
                  Add a line
                </Button>
                <Text size="sm">Each period: {/^[A-Z]{3}$/.test(currency) ? <Money amount={total} currency={currency} /> : total}</Text>
              </Group>
            </Stack>
          </fieldset>
          <Checkbox label="Own dunning ladder (otherwise the daemon's default applies)" checked={ownDunning} onChange={(e) => setOwnDunning(e.currentTarget.checked)} />
          {ownDunning && (
            <Group grow>
              <TextInput label="Retry delays" description="Comma separated, each from the previous attempt: 1d, 3d, 7d" value={retryDelays} onChange={(e) => setRetryDelays(e.currentTarget.value)} />
              <Select label="Then" data={['cancel', 'unpaid']} value={finalAction} onChange={(v) => v && setFinalAction(v as 'cancel' | 'unpaid')} allowDeselect={false} />
            </Group>
          )}
          {create.mutation.error && <ErrorNotice error={create.mutation.error} />}
          <Group>
            <Button type="submit" loading={create.mutation.isPending}>
              Create plan
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
