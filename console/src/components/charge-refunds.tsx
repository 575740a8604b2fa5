import { Code, Group, Radio, Select, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Charge, Refund } from '../api/types';
import { minorAsInput, parseMinor } from '../format/amount-input';
import { formatMoney } from '../format/money';
import { ActionDialog } from './action-dialog';
import { RowsTable } from './rows-table';
import { Field, Money, Status, Time } from './values';

const REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'service_issue', 'other'] as const;
type Reason = (typeof REASONS)[number];

/** What can still go back each way (the daemon's rule: the card never more than it paid less its refunds). */
function refundable(c: Charge, refunds: Refund[]) {
  const counted = refunds.filter((r) => r.status !== 'failed');
  const toCard = counted.filter((r) => r.to === 'card').reduce((sum, r) => sum + r.amount, 0);
  const all = counted.reduce((sum, r) => sum + r.amount, 0);
  const left = Math.max(0, c.amount - all);
  return { card: Math.min(left, Math.max(0, c.amount - c.paidFromBalance - toCard)), balance: left };
}

/** "Refund": an amount, to the card or to the credit balance, and a reason; the confirm button names the amount. */
function RefundDialog({ c, refunds }: { c: Charge; refunds: Refund[] }) {
  const { t } = useTranslation();
  const left = refundable(c, refunds);
  const [to, setTo] = useState<'card' | 'balance'>('card');
  const [text, setText] = useState('');
  const [reason, setReason] = useState<Reason>('requested_by_customer');
  const amount = parseMinor(text, c.currency);
  const max = left[to];
  const valid = amount !== null && amount >= 1 && amount <= max;
  const money = amount !== null ? formatMoney(amount, c.currency) : '';
  return (
    <ActionDialog
      scope="charges:write"
      label={t('refunds.label')}
      title={t('refunds.title')}
      confirmLabel={valid ? t('refunds.confirmAmount', { amount: money }) : t('refunds.confirm')}
      destructive
      disabled={c.status !== 'succeeded' || left.balance === 0}
      ready={valid}
      onOpen={() => {
        const way = left.card > 0 ? 'card' : 'balance';
        setTo(way);
        setText(minorAsInput(left[way], c.currency));
        setReason('requested_by_customer');
      }}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/charges/{id}/refunds', { params: { path: { id: c.id } }, body: { amount: amount ?? 0, to, reason }, headers: { 'Idempotency-Key': key } }))
      }
      done={(r) => t(r.status === 'succeeded' ? 'refunds.doneNow' : 'refunds.donePending', { amount: formatMoney(r.amount, r.currency) })}
    >
      <Radio.Group label={t('refunds.to')} value={to} onChange={(v) => setTo(v as 'card' | 'balance')}>
        <Group mt={4}>
          <Radio value="card" label={t('refunds.toCard', { amount: formatMoney(left.card, c.currency) })} disabled={left.card === 0} />
          <Radio value="balance" label={t('refunds.toBalance', { amount: formatMoney(left.balance, c.currency) })} />
        </Group>
      </Radio.Group>
      <TextInput
        label={t('refunds.amount', { currency: c.currency })}
        inputMode="decimal"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={text !== '' && !valid ? t('refunds.amountError', { max: formatMoney(max, c.currency) }) : undefined}
        autoComplete="off"
      />
      <Select
        label={t('refunds.reason')}
        data={REASONS.map((r) => ({ value: r, label: t(`refunds.reasons.${r}`) }))}
        value={reason}
        onChange={(v) => v && setReason(v as Reason)}
        allowDeselect={false}
      />
      {valid && <Text size="sm">{to === 'card' ? t('refunds.effectCard', { amount: money }) : t('refunds.effectBalance', { amount: money })}</Text>}
    </ActionDialog>
  );
}

/** The charge's refunds (each with its status, followed while one is at the provider) and the Refund dialog. */
export function ChargeRefunds({ c }: { c: Charge }) {
  const { t } = useTranslation();
  const refunds = useQuery({
    queryKey: ['refunds', { chargeId: c.id }],
    queryFn: async () => unwrap(await api.GET('/api/v1/refunds', { params: { query: { chargeId: c.id, limit: 100 } } })),
    refetchInterval: (query) => (query.state.data?.items.some((r) => r.status === 'pending') ? 2_000 : false),
  });
  const items = refunds.data?.items ?? [];
  // A card refund settles later: once it has, the charge's refunded amount is read again.
  const queryClient = useQueryClient();
  const settled = items.filter((r) => r.status === 'succeeded').length;
  useEffect(() => void queryClient.invalidateQueries({ queryKey: ['charge', c.id] }), [settled, c.id, queryClient]);
  return (
    <section aria-labelledby="refunds">
      <Group justify="space-between">
        <Title order={2} size="h4" id="refunds">
          {t('refunds.heading')}
        </Title>
        <RefundDialog c={c} refunds={items} />
      </Group>
      <Field label={t('refunds.refunded')}>
        <span data-testid="amount-refunded">
          <Trans i18nKey="refunds.refundedOf" components={{ refunded: <Money amount={c.amountRefunded} currency={c.currency} />, amount: <Money amount={c.amount} currency={c.currency} /> }} />
        </span>
      </Field>
      {items.length === 0 ? (
        <Text size="sm">{t('refunds.none')}</Text>
      ) : (
        <RowsTable
          caption={t('refunds.caption')}
          rows={items}
          rowKey={(r) => r.id}
          columns={[
            { header: t('refunds.col.number'), cell: (r) => r.number },
            { header: t('refunds.col.amount'), cell: (r) => <Money amount={r.amount} currency={r.currency} /> },
            { header: t('refunds.col.to'), cell: (r) => t(`refunds.toShort.${r.to}`) },
            {
              header: t('refunds.col.status'),
              cell: (r) => (
                <Group gap={4} wrap="nowrap">
                  <Status value={r.status} />
                  {r.failureCode && <Code>{r.failureCode}</Code>}
                </Group>
              ),
            },
            { header: t('refunds.col.reason'), cell: (r) => (r.reason ? t(`refunds.reasons.${r.reason}`) : '—') },
            { header: t('refunds.col.created'), cell: (r) => <Time value={r.createdAt} /> },
          ]}
        />
      )}
    </section>
  );
}
