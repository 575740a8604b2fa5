import { upcomingCharge } from './upcoming-charge';

describe('upcomingCharge', () => {
  const plans = new Map([
    ['basic', { amount: 99000, currency: 'RUB' }],
    ['pro', { amount: 249050, currency: 'RUB' }],
  ]);
  const renewal = new Date('2027-02-01T00:00:00.000Z');

  it('is the plan amount times the quantity', () => {
    expect(upcomingCharge({ planId: 'basic', quantity: 3, pendingChange: null }, plans, renewal)).toEqual({ amount: 297000, currency: 'RUB' });
  });

  it('takes the plan and quantity of a change waiting for the renewal', () => {
    const pendingChange = { planId: 'pro', quantity: 2, effectiveAt: '2027-02-01T00:00:00.000Z' };
    expect(upcomingCharge({ planId: 'basic', quantity: 5, pendingChange }, plans, renewal)).toEqual({ amount: 498100, currency: 'RUB' });
    expect(upcomingCharge({ planId: 'pro', quantity: 5, pendingChange: { ...pendingChange, planId: 'pro', quantity: 1 } }, plans, renewal)).toEqual({ amount: 249050, currency: 'RUB' });
  });

  it('keeps the current plan for a renewal before the one a migration moves the subscription at', () => {
    const pendingChange = { planId: 'pro', quantity: 5, effectiveAt: '2027-03-01T00:00:00.000Z', source: 'migration' as const, migrationId: 'm' };
    expect(upcomingCharge({ planId: 'basic', quantity: 5, pendingChange }, plans, renewal)).toEqual({ amount: 495000, currency: 'RUB' });
    expect(upcomingCharge({ planId: 'basic', quantity: 5, pendingChange }, plans, new Date('2027-03-01T00:00:00.000Z'))).toEqual({ amount: 1245250, currency: 'RUB' });
  });

  it('answers null figures for an unknown plan', () => {
    expect(upcomingCharge({ planId: 'gone', quantity: 1, pendingChange: null }, plans, renewal)).toEqual({ amount: null, currency: null });
  });
});
