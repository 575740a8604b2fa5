import { Code, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Coupon } from '../api/types';
import { ActionButton } from '../components/action-button';
import { NewCouponDialog } from '../components/coupon-form';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { PlanLink } from '../components/ids';
import { Money, Status, Time } from '../components/values';
import { operatorZone } from '../format/time';

/** Coupons: what each takes off and for how long, how often it was used; a new one; archive one. */
export default function CouponsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useFilter('status');
  const off = (c: Coupon) => (c.percentOff !== null ? t('coupons.percentOff', { percent: c.percentOff }) : <Money amount={c.amountOff ?? 0} currency={c.currency ?? 'RUB'} />);
  const duration = (c: Coupon) => (c.duration === 'repeating' ? t('coupons.periods', { count: c.durationPeriods ?? 0 }) : t(`coupons.durations.${c.duration}`));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('coupons.title')}
        </Title>
        <NewCouponDialog />
      </Group>
      <StatusFilter label={t('coupons.status')} values={['active', 'archived']} value={status} onChange={setStatus} />
      <PagedTable<Coupon>
        caption={t('coupons.caption')}
        queryKey={['coupons', { status }]}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/coupons', { params: { query: { status: status as Coupon['status'] | undefined, cursor, limit: 25 } } }))}
        rowKey={(c) => c.id}
        empty={t('coupons.empty')}
        columns={[
          { header: t('coupons.col.code'), cell: (c) => <Code>{c.code}</Code> },
          { header: t('coupons.col.name'), cell: (c) => c.name },
          { header: t('coupons.col.off'), cell: off },
          { header: t('coupons.col.duration'), cell: duration },
          { header: t('coupons.col.redeemed'), cell: (c) => (c.maxRedemptions === null ? c.timesRedeemed : t('coupons.redeemedOf', { count: c.timesRedeemed, max: c.maxRedemptions })) },
          // In the operator's zone, where the day was chosen, and in UTC beside it.
          { header: t('coupons.col.redeemBy'), cell: (c) => <Time value={c.redeemBy} zone={operatorZone()} /> },
          { header: t('coupons.col.plans'), cell: (c) => (c.appliesToPlans?.length ? (
              <Stack gap={2}>
                {c.appliesToPlans.map((id) => (
                  <PlanLink key={id} id={id} />
                ))}
              </Stack>
            ) : t('coupons.everyPlan')) },
          { header: t('coupons.col.status'), cell: (c) => <Status value={c.status} /> },
          {
            header: t('coupons.col.actions'),
            cell: (c) => (
              <ActionButton
                scope="coupons:write"
                label={t('coupons.archive.label')}
                color="orange"
                disabled={c.status === 'archived'}
                confirm={{ title: t('coupons.archive.title', { code: c.code }), effect: t('coupons.archive.effect'), confirmLabel: t('coupons.archive.confirm') }}
                run={async (key) => unwrap(await api.POST('/api/v1/coupons/{id}/archive', { params: { path: { id: c.id } }, headers: { 'Idempotency-Key': key } }))}
                done={(r) => t('coupons.archive.done', { code: r.code })}
              />
            ),
          },
        ]}
      />
    </Stack>
  );
}
