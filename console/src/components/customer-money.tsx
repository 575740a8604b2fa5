import { Code, Group, NumberInput, Radio, Select, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useAllows } from '../api/use-allows';
import { parseMinor } from '../format/amount-input';
import { formatMoney } from '../format/money';
import { useValueLabel } from '../i18n/value-label';
import { ActionDialog } from './action-dialog';
import { RowsTable } from './rows-table';
import { IdLink } from './ids';
import { Money, Time } from './values';

/** The rates BILLING_TAX_RATES allows by default (docs/admin-api.md, VAT rates); '' sends none. */
const TAX_RATES = ['', '0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122'];

/** "Charge now" on the customer's card, or "add to the next invoice" of one of their subscriptions: one line. */
function OneOffChargeDialog({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const [product, setProduct] = useState('');
  const [priceText, setPriceText] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [taxRate, setTaxRate] = useState('');
  const [currency, setCurrency] = useState('RUB');
  const [when, setWhen] = useState<'now' | 'next_renewal'>('now');
  const [subscriptionId, setSubscriptionId] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const subscriptions = useQuery({
    queryKey: ['subscriptions', { customerId, renewing: true }],
    queryFn: async () => unwrap(await api.GET('/api/v1/subscriptions', { params: { query: { customerId, limit: 100 } } })),
  });
  const renewing = (subscriptions.data?.items ?? []).filter((s) => !['canceled', 'unpaid'].includes(s.status) && !s.cancelAtPeriodEnd);
  const price = /^[A-Z]{3}$/.test(currency) ? parseMinor(priceText, currency) : null;
  const count = Number(quantity);
  const total = price !== null && Number.isInteger(count) && count >= 1 ? price * count : null;
  const valid = product.trim().length >= 1 && total !== null && total >= 1 && (when === 'now' || subscriptionId !== null);
  const amount = total !== null ? formatMoney(total, currency) : '';
  return (
    <ActionDialog
      scope="charges:write"
      label={t('oneOffCharges.label')}
      title={t('oneOffCharges.title')}
      confirmLabel={valid ? t(when === 'now' ? 'oneOffCharges.confirmNow' : 'oneOffCharges.confirmLater', { amount }) : t('oneOffCharges.confirm')}
      ready={valid}
      onOpen={() => {
        setProduct('');
        setPriceText('');
        setQuantity(1);
        setDescription('');
      }}
      run={async (key) =>
        unwrap(
          await api.POST('/api/v1/customers/{id}/charges', {
            params: { path: { id: customerId } },
            body: {
              lines: [{ product: product.trim(), price: price ?? 0, quantity: count, ...(taxRate ? { taxRate } : {}) }],
              currency,
              when,
              ...(subscriptionId && when === 'next_renewal' ? { subscriptionId } : {}),
              ...(description.trim() ? { description: description.trim() } : {}),
            },
            headers: { 'Idempotency-Key': key },
          }),
        )
      }
      done={(r) => (when === 'now' ? t('oneOffCharges.doneNow', { amount: formatMoney(r.amount, r.currency), status: valueLabel('status', r.status) }) : t('oneOffCharges.doneLater', { amount: formatMoney(r.amount, r.currency) }))}
    >
      <Radio.Group label={t('oneOffCharges.when')} value={when} onChange={(v) => setWhen(v as 'now' | 'next_renewal')}>
        <Group mt={4}>
          <Radio value="now" label={t('oneOffCharges.whenNow')} />
          <Radio value="next_renewal" label={t('oneOffCharges.whenRenewal')} disabled={renewing.length === 0} />
        </Group>
      </Radio.Group>
      {when === 'next_renewal' && (
        <Select
          label={t('oneOffCharges.subscription')}
          data={renewing.map((s) => ({ value: s.id, label: s.id }))}
          value={subscriptionId}
          onChange={setSubscriptionId}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <TextInput label={t('oneOffCharges.product')} value={product} onChange={(e) => setProduct(e.currentTarget.value)} maxLength={1000} required data-autofocus />
      <Group grow align="flex-start">
        <TextInput label={t('oneOffCharges.price')} inputMode="decimal" value={priceText} onChange={(e) => setPriceText(e.currentTarget.value)} required autoComplete="off" />
        <TextInput label={t('oneOffCharges.currency')} value={currency} maxLength={3} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} />
      </Group>
      <Group grow align="flex-start">
        <NumberInput label={t('oneOffCharges.quantity')} min={1} allowDecimal={false} value={quantity} onChange={setQuantity} />
        <Select label={t('oneOffCharges.taxRate')} data={TAX_RATES.map((r) => ({ value: r, label: r || t('oneOffCharges.noTax') }))} value={taxRate} onChange={(v) => setTaxRate(v ?? '')} allowDeselect={false} />
      </Group>
      <TextInput label={t('oneOffCharges.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      {valid && <Text size="sm">{t(when === 'now' ? 'oneOffCharges.effectNow' : 'oneOffCharges.effectLater', { amount })}</Text>}
    </ActionDialog>
  );
}

/** The customer's credit balance per currency and its newest entries; a one-off charge. */
export function CustomerMoney({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const mayRead = useAllows('customers:read');
  const balance = useQuery({
    queryKey: ['balance', customerId],
    enabled: mayRead,
    queryFn: async () => unwrap(await api.GET('/api/v1/customers/{id}/balance', { params: { path: { id: customerId } } })),
  });
  const b = balance.data;
  return (
    <section aria-labelledby="balance">
      <Group justify="space-between">
        <Title order={2} size="h4" id="balance">
          {t('balance.heading')}
        </Title>
        <OneOffChargeDialog customerId={customerId} />
      </Group>
      <Text data-testid="balance-amounts">
        {b && b.balances.length > 0 ? b.balances.map((x) => formatMoney(x.amount, x.currency)).join(' · ') : t('balance.none')}
      </Text>
      {b && b.entries.length > 0 && (
        <RowsTable
          caption={t('balance.caption')}
          rows={b.entries}
          rowKey={(e) => e.id}
          columns={[
            { header: t('balance.col.when'), cell: (e) => <Time value={e.createdAt} /> },
            { header: t('balance.col.kind'), cell: (e) => t(`balance.kinds.${e.kind}`) },
            { header: t('balance.col.amount'), cell: (e) => <Money amount={e.amount} currency={e.currency} /> },
            { header: t('balance.col.description'), cell: (e) => (e.description ? <Code>{e.description}</Code> : '—') },
            {
              header: t('balance.col.link'),
              cell: (e) =>
                e.chargeId ? <IdLink to={`/charges/${e.chargeId}`} id={e.chargeId} /> : e.subscriptionId ? <IdLink to={`/subscriptions/${e.subscriptionId}`} id={e.subscriptionId} /> : '—',
            },
          ]}
        />
      )}
    </section>
  );
}
