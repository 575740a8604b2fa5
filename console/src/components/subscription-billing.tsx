import { Code, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Plan, Subscription, SubscriptionDiscount } from '../api/types';
import { formatMoney } from '../format/money';
import { ActionButton } from './action-button';
import { ActionDialog } from './action-dialog';
import { PlanLink } from './ids';
import { ChangePlanDialog } from './subscription-change';
import { Field, Money, Time } from './values';

/** "50% off, 2 periods left" / "RUB 100.00 off, forever". */
function DiscountText({ d, currency }: { d: SubscriptionDiscount; currency?: string }) {
  const { t } = useTranslation();
  const off = d.percentOff !== null ? t('coupons.percentOff', { percent: d.percentOff }) : t('coupons.amountOff', { amount: currency ? formatMoney(d.amountOff ?? 0, currency) : String(d.amountOff) });
  const left = d.periodsLeft === null ? t('coupons.forever') : t('coupons.periodsLeft', { count: d.periodsLeft });
  return <>{`${off}, ${left}`}</>;
}

/** Apply a coupon by its code (replacing the one in force), or remove the one in force. */
function CouponActions({ s }: { s: Subscription }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const path = { params: { path: { id: s.id } } };
  return (
    <>
      <ActionDialog
        scope="subscriptions:write"
        label={t('coupons.apply.label')}
        title={t('coupons.apply.title')}
        confirmLabel={t('coupons.apply.confirm')}
        disabled={s.status === 'canceled'}
        ready={/^[A-Za-z0-9_-]{3,32}$/.test(code.trim())}
        onOpen={() => setCode('')}
        run={async (key) => unwrap(await api.POST('/api/v1/subscriptions/{id}/discount', { ...path, body: { couponCode: code.trim() }, headers: { 'Idempotency-Key': key } }))}
        done={(r) => t('coupons.apply.done', { code: r.discount?.code ?? code.trim().toUpperCase() })}
      >
        <TextInput label={t('coupons.apply.code')} value={code} onChange={(e) => setCode(e.currentTarget.value)} autoComplete="off" data-autofocus />
        <div>{s.discount ? t('coupons.apply.replaces', { code: s.discount.code }) : t('coupons.apply.effect')}</div>
      </ActionDialog>
      <ActionButton
        scope="subscriptions:write"
        label={t('coupons.remove.label')}
        color="orange"
        disabled={!s.discount}
        confirm={{
          title: t('coupons.remove.title'),
          effect: t('coupons.remove.effect', { code: s.discount?.code ?? '' }),
          confirmLabel: t('coupons.remove.confirm'),
        }}
        run={async (key) => unwrap(await api.DELETE('/api/v1/subscriptions/{id}/discount', { ...path, headers: { 'Idempotency-Key': key } }))}
        done={() => t('coupons.remove.done')}
      />
    </>
  );
}

/**
 * What the subscription is billed (seats, the amount per period, its coupon, a change waiting for the renewal) and the
 * actions on them: change plan or seats with the preview first, drop the pending change, apply or remove a coupon.
 */
export function SubscriptionBilling({ s, plan }: { s: Subscription; plan?: Plan }) {
  const { t } = useTranslation();
  const pending = s.pendingChange;
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('subscriptionChange.quantityField')}>{s.quantity}</Field>
        <Field label={t('subscriptionChange.amountField')}>
          {plan ? (
            <span data-testid="subscription-amount">
              {t('subscriptionChange.amountText', { amount: formatMoney(plan.amount * s.quantity, plan.currency), price: formatMoney(plan.amount, plan.currency), count: s.quantity })}
            </span>
          ) : (
            '…'
          )}
        </Field>
        <Field label={t('coupons.field')}>{s.discount ? <Code>{s.discount.code}</Code> : '—'} {s.discount && <DiscountText d={s.discount} currency={plan?.currency} />}</Field>
        {pending && (
          <Field label={t('subscriptionChange.pendingField')}>
            <Trans
              i18nKey="subscriptionChange.pendingText"
              count={pending.quantity}
              components={{ plan: <PlanLink id={pending.planId} />, when: <Time value={pending.effectiveAt} zone={s.timezone} /> }}
            />
          </Field>
        )}
      </SimpleGrid>
      <Group>
        <ChangePlanDialog s={s} plan={plan} />
        {pending && (
          <ActionButton
            scope="subscriptions:write"
            label={t('subscriptionChange.drop.label')}
            color="orange"
            confirm={{ title: t('subscriptionChange.drop.title'), effect: plan ? <Trans i18nKey="subscriptionChange.drop.effect" components={{ amount: <Money amount={plan.amount * s.quantity} currency={plan.currency} /> }} /> : '', confirmLabel: t('subscriptionChange.drop.confirm') }}
            run={async (key) => unwrap(await api.DELETE('/api/v1/subscriptions/{id}/change', { params: { path: { id: s.id } }, headers: { 'Idempotency-Key': key } }))}
            done={() => t('subscriptionChange.drop.done')}
          />
        )}
        <CouponActions s={s} />
      </Group>
    </>
  );
}
