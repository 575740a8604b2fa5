import { Alert, Loader, NumberInput, Select, SimpleGrid, Text } from '@mantine/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { ChangeFigures, Plan, Subscription } from '../api/types';
import { formatMoney } from '../format/money';
import { ActionDialog } from './action-dialog';
import { ErrorNotice } from './error-notice';
import { Field, Money, Time } from './values';

type Effective = 'auto' | 'now' | 'period_end';

/**
 * The figures the API answers for a change (POST …/change/preview), shown before the change can be confirmed. Its
 * `lines` are left out: they say the same in the daemon's English.
 */
function Preview({ s, preview, currency }: { s: Subscription; preview: UseQueryResult<ChangeFigures | null>; currency?: string }) {
  const { t } = useTranslation();
  if (preview.error) return <ErrorNotice error={preview.error} />;
  const p = preview.data;
  if (!p || !currency) return <Loader size="sm" role="status" aria-label={t('subscriptionChange.previewing')} />;
  const money = (amount: number) => <Money amount={amount} currency={currency} />;
  return (
    <section aria-label={t('subscriptionChange.preview')} data-testid="change-preview">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        <Field label={t('subscriptionChange.applies')}>
          <Time value={p.effectiveAt} zone={s.timezone} />
        </Field>
        <Field label={t('subscriptionChange.credit')}>{money(p.credit)}</Field>
        <Field label={t('subscriptionChange.cost')}>{money(p.cost)}</Field>
        <Field label={p.net >= 0 ? t('subscriptionChange.chargedNow') : t('subscriptionChange.toBalance')}>{money(Math.abs(p.net))}</Field>
        <Field label={t('subscriptionChange.balanceAfter')}>{money(p.balanceAfter)}</Field>
        <Field label={t('subscriptionChange.nextCharge')}>
          {money(p.nextChargeAmount)} · <Time value={p.nextChargeAt} zone={s.timezone} />
        </Field>
      </SimpleGrid>
      <Alert variant="light" mt="xs" role="note">
        <Text size="sm">
          {p.net > 0 ? (
            <Trans i18nKey="subscriptionChange.effectCharge" components={{ amount: money(p.net), when: <Time value={p.effectiveAt} zone={s.timezone} /> }} />
          ) : (
            <Trans i18nKey="subscriptionChange.effectNoCharge" components={{ when: <Time value={p.effectiveAt} zone={s.timezone} />, amount: money(p.nextChargeAmount) }} />
          )}
        </Text>
      </Alert>
    </section>
  );
}

/** "Change plan or quantity": the plan and seats chosen, the API's preview, then the change. */
export function ChangePlanDialog({ s, plan }: { s: Subscription; plan?: Plan }) {
  const { t } = useTranslation();
  const [planId, setPlanId] = useState(s.planId);
  const [quantity, setQuantity] = useState<number>(s.quantity);
  const [effective, setEffective] = useState<Effective>('auto');
  const [open, setOpen] = useState(false);
  // Read by the preview's query at once (state would only change at the next render, after the change's refresh).
  const openNow = useRef(false);
  const plans = useQuery({
    queryKey: ['plans', { status: 'active', all: true }],
    queryFn: async () => unwrap(await api.GET('/api/v1/plans', { params: { query: { status: 'active', limit: 100 } } })),
  });
  const choices = (plans.data?.items ?? [])
    .filter((p) => !plan || p.currency === plan.currency)
    .map((p) => ({ value: p.id, label: t('subscriptionChange.planOption', { name: p.name, amount: formatMoney(p.amount, p.currency), every: t(`interval.${p.interval}`, { count: p.intervalCount }) }) }));
  const unchanged = planId === s.planId && quantity === s.quantity;
  const validQuantity = Number.isInteger(quantity) && quantity >= 1 && quantity <= 10000;
  const changeable = s.status === 'active' || s.status === 'trialing';
  const body = { planId, quantity, ...(effective === 'auto' ? {} : { effective }) };
  const preview = useQuery({
    queryKey: ['change-preview', s.id, body],
    // Only while the dialog is open: after the change, the same body would be refused (nothing left to change).
    enabled: open && !unchanged && validQuantity,
    retry: false,
    // Priced on the billing clock: read again when asked, never kept.
    gcTime: 0,
    queryFn: async () => (openNow.current ? unwrap(await api.POST('/api/v1/subscriptions/{id}/change/preview', { params: { path: { id: s.id } }, body })) : null),
  });
  const currency = plans.data?.items.find((p) => p.id === planId)?.currency ?? plan?.currency;
  return (
    <ActionDialog
      scope="subscriptions:write"
      label={t('subscriptionChange.label')}
      title={t('subscriptionChange.title')}
      confirmLabel={t('subscriptionChange.confirm')}
      disabled={!changeable}
      ready={!unchanged && validQuantity && !!preview.data && !preview.isFetching}
      onOpen={() => {
        setPlanId(s.planId);
        setQuantity(s.quantity);
        setEffective('auto');
        setOpen(true);
        openNow.current = true;
      }}
      onClose={() => {
        setOpen(false);
        openNow.current = false;
      }}
      run={async (key) =>
        unwrap(
          await api.POST('/api/v1/subscriptions/{id}/change', {
            params: { path: { id: s.id } },
            body: { planId, quantity, ...(effective === 'auto' ? {} : { effective }) },
            headers: { 'Idempotency-Key': key },
          }),
        )
      }
      done={(r) => (r.subscription.pendingChange ? t('subscriptionChange.doneLater') : t('subscriptionChange.doneNow'))}
    >
      <Select label={t('subscriptionChange.plan')} data={choices} value={planId} onChange={(v) => v && setPlanId(v)} allowDeselect={false} searchable comboboxProps={{ withinPortal: true }} />
      <NumberInput label={t('subscriptionChange.quantity')} min={1} max={10000} allowDecimal={false} value={quantity} onChange={(v) => setQuantity(typeof v === 'number' ? v : Number(v))} />
      <Select
        label={t('subscriptionChange.when')}
        data={[
          { value: 'auto', label: t('subscriptionChange.whenAuto') },
          { value: 'now', label: t('subscriptionChange.whenNow') },
          { value: 'period_end', label: t('subscriptionChange.whenPeriodEnd') },
        ]}
        value={effective}
        onChange={(v) => v && setEffective(v as Effective)}
        allowDeselect={false}
      />
      {unchanged ? <Text size="sm">{t('subscriptionChange.chooseSomething')}</Text> : validQuantity && <Preview s={s} preview={preview} currency={currency} />}
    </ActionDialog>
  );
}
