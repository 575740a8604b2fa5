import { CardExpiryFlagsService } from './card-expiry-flags.service';

describe('the expired-card flag', () => {
  const flags = new CardExpiryFlagsService();
  flags.register(async (ids) =>
    new Map(
      [
        ['expired', { expiredCard: true, bindingId: 'card-1' }],
        ['replaced', { expiredCard: true, bindingId: 'card-1' }],
        ['funds', { expiredCard: false, bindingId: 'card-1' }],
        ['unknown-card', { expiredCard: true, bindingId: null }],
      ].filter(([id]) => ids.includes(id as string)) as [string, { expiredCard: boolean; bindingId: string | null }][],
    ),
  );

  it('flags a customer whose newest decline was an expired card that is still their active one', async () => {
    const customers = [
      { id: 'expired', activeBindingId: 'card-1' },
      { id: 'replaced', activeBindingId: 'card-2' },
      { id: 'funds', activeBindingId: 'card-1' },
      { id: 'unknown-card', activeBindingId: 'card-1' },
      { id: 'never-declined', activeBindingId: 'card-1' },
      { id: 'no-card', activeBindingId: null },
    ];
    expect([...(await flags.expiredCardsOf(customers))]).toEqual(['expired']);
  });

  it('flags no one before billing registered its reader', async () => {
    expect((await new CardExpiryFlagsService().expiredCardsOf([{ id: 'expired', activeBindingId: 'card-1' }])).size).toBe(0);
  });
});
