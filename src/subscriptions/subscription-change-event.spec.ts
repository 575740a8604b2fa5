import { subscriptionChangeEvent, SubscriptionView } from './subscription-change-event';

const base: SubscriptionView = {
  id: 's1',
  customerId: 'c1',
  planId: 'p1',
  quantity: 1,
  pendingChange: null,
  status: 'active',
  timezone: 'UTC',
  startAt: '2027-01-01T00:00:00.000Z',
  currentPeriodStart: '2027-01-01T00:00:00.000Z',
  currentPeriodEnd: '2027-02-01T00:00:00.000Z',
  nextBillingAt: '2027-02-01T00:00:00.000Z',
  trialEndsAt: null,
  cancelAtPeriodEnd: false,
  canceledAt: null,
  pausedAt: null,
  createdAt: '2027-01-01T00:00:00.000Z',
  updatedAt: '2027-01-01T00:00:00.000Z',
  metadata: {},
  billingError: null,
  discount: null,
};

describe('subscriptionChangeEvent', () => {
  it('announces a new subscription as created', () => {
    expect(subscriptionChangeEvent(null, base)).toEqual({ type: 'subscription.created', data: { object: base } });
  });

  it('announces a renewal as updated, with the former period', () => {
    const after = { ...base, currentPeriodStart: base.currentPeriodEnd, currentPeriodEnd: '2027-03-01T00:00:00.000Z', nextBillingAt: '2027-03-01T00:00:00.000Z', updatedAt: 'later' };
    expect(subscriptionChangeEvent(base, after)).toEqual({
      type: 'subscription.updated',
      data: { object: after, previous: { currentPeriodStart: base.currentPeriodStart, currentPeriodEnd: base.currentPeriodEnd, nextBillingAt: base.nextBillingAt } },
    });
  });

  it('announces a status change and cancel-at-period-end as updated', () => {
    expect(subscriptionChangeEvent(base, { ...base, status: 'past_due' })?.data.previous).toEqual({ status: 'active' });
    expect(subscriptionChangeEvent(base, { ...base, cancelAtPeriodEnd: true })?.type).toBe('subscription.updated');
  });

  it('announces the end as canceled', () => {
    const after = { ...base, status: 'canceled' as const, canceledAt: '2027-01-15T00:00:00.000Z', nextBillingAt: null };
    expect(subscriptionChangeEvent(base, after)).toEqual({
      type: 'subscription.canceled',
      data: { object: after, previous: { status: 'active', canceledAt: null, nextBillingAt: base.nextBillingAt } },
    });
  });

  it('says nothing when only other fields (or nothing but updatedAt) changed', () => {
    expect(subscriptionChangeEvent(base, { ...base, updatedAt: 'later' })).toBeNull();
    expect(subscriptionChangeEvent(base, { ...base, nextBillingAt: '2027-04-01T00:00:00.000Z' })).toBeNull();
  });
});
