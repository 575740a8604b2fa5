import { upcomingCharge } from './upcoming-charge';

describe('upcomingCharge', () => {
  const plans = new Map([
    ['basic', { amount: 99000, currency: 'RUB' }],
    ['pro', { amount: 249050, currency: 'RUB' }],
  ]);

  it('is the plan amount times the quantity', () => {
    expect(upcomingCharge({ planId: 'basic', quantity: 3, pendingChange: null }, plans)).toEqual({ amount: 297000, currency: 'RUB' });
  });

  it('takes the plan and quantity of a change waiting for the renewal', () => {
    const pendingChange = { planId: 'pro', quantity: 2, effectiveAt: '2027-02-01T00:00:00.000Z' };
    expect(upcomingCharge({ planId: 'basic', quantity: 5, pendingChange }, plans)).toEqual({ amount: 498100, currency: 'RUB' });
    expect(upcomingCharge({ planId: 'pro', quantity: 5, pendingChange: { ...pendingChange, planId: 'pro', quantity: 1 } }, plans)).toEqual({ amount: 249050, currency: 'RUB' });
  });

  it('answers null figures for an unknown plan', () => {
    expect(upcomingCharge({ planId: 'gone', quantity: 1, pendingChange: null }, plans)).toEqual({ amount: null, currency: null });
  });
});
