import { referencesOf } from './event-about';

const ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
const OTHER = '0b8f3c8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

describe('what an event is about', () => {
  it('takes a customer event’s customer from the object itself, any other from its customerId', () => {
    expect(referencesOf({ type: 'customer.ready', data: { object: { id: ID, email: 'a@example.com' } } })).toEqual({ customerId: ID, planId: null, amount: null, currency: null });
    expect(referencesOf({ type: 'subscription.created', data: { object: { id: OTHER, customerId: ID, planId: OTHER } } })).toEqual({ customerId: ID, planId: OTHER, amount: null, currency: null });
  });

  it('takes the money of a charge, refund or payout, and the coming charge of a notice', () => {
    expect(referencesOf({ type: 'charge.declined', data: { object: { id: OTHER, customerId: ID, amount: 99000, currency: 'RUB' } } })).toMatchObject({ amount: 99000, currency: 'RUB' });
    expect(referencesOf({ type: 'payout.succeeded', data: { object: { id: OTHER, amount: 500, currency: 'RUB' } } })).toEqual({ customerId: null, planId: null, amount: 500, currency: 'RUB' });
    expect(
      referencesOf({ type: 'subscription.renewal_upcoming', data: { object: { id: OTHER, customerId: ID, planId: OTHER }, upcoming: { amount: 1500, currency: 'USD', chargeAt: 'x' } } }),
    ).toEqual({ customerId: ID, planId: OTHER, amount: 1500, currency: 'USD' });
  });
});
