import type { CustomerChange, CustomerEvent } from '../gateway/provider-api.types';
import { BindingObservation, bindingPatch, foldEvent, mergeStatus, newObservedBinding } from './customer-event-fold';

const event = (id: number, ...changes: CustomerChange[]): CustomerEvent => ({ id, createdAt: '2024-01-01T00:00:00Z', changes });

const started = (id: string, status: 'pending' | 'succeeded' | 'failed', extra: { externalID?: string; code?: string } = {}): CustomerChange => ({
  changeType: 'CustomerBindingStarted',
  customerBinding: {
    id,
    ...(extra.externalID !== undefined && { externalID: extra.externalID }),
    paymentResource: {
      paymentToolToken: 'token',
      paymentSession: 'session',
      paymentToolDetails: { detailsType: 'PaymentToolDetailsBankCard', bin: '424242', lastDigits: '4242', paymentSystem: 'visa' },
    },
    status,
    ...(extra.code !== undefined && { error: { code: extra.code, message: 'declined' } }),
  },
});

const statusChanged = (id: string, status: 'pending' | 'succeeded' | 'failed', code?: string): CustomerChange => ({
  changeType: 'CustomerBindingStatusChanged',
  customerBindingID: id,
  status,
  ...(code !== undefined && { error: { code, message: 'declined' } }),
});

describe('foldEvent', () => {
  it('folds a started binding and its later status into one observation, with the card and our externalID', () => {
    const observations = new Map<string, BindingObservation>();
    expect(foldEvent(observations, event(1, started('b1', 'pending', { externalID: 'bx' })))).toBeUndefined();
    expect(foldEvent(observations, event(2, statusChanged('b1', 'succeeded')))).toBe('b1');
    expect(observations.get('b1')).toEqual({
      providerBindingId: 'b1',
      externalId: 'bx',
      status: 'succeeded',
      errorCode: null,
      card: { bin: '424242', lastDigits: '4242', paymentSystem: 'visa' },
    });
  });

  it('answers the last binding an event reports as succeeded and keeps the failure code', () => {
    const observations = new Map<string, BindingObservation>();
    const change = foldEvent(observations, event(1, statusChanged('b1', 'succeeded'), statusChanged('b2', 'failed', 'insufficient_funds'), statusChanged('b3', 'succeeded')));
    expect(change).toBe('b3');
    expect(observations.get('b2')).toEqual({ providerBindingId: 'b2', status: 'failed', errorCode: 'insufficient_funds' });
  });

  it("keeps the provider's sub-codes of a failure as one code path, as payment declines do", () => {
    const observations = new Map<string, BindingObservation>();
    const nested = { code: 'authorization_failed', message: 'Insufficient Funds', subError: { code: 'insufficient_funds' } };
    foldEvent(observations, event(1, { changeType: 'CustomerBindingStatusChanged', customerBindingID: 'b1', status: 'failed', error: nested }));
    expect(observations.get('b1')?.errorCode).toBe('authorization_failed:insufficient_funds');
  });

  it('ignores events without changes', () => {
    const observations = new Map<string, BindingObservation>();
    expect(foldEvent(observations, { id: 2, createdAt: '2024-01-01T00:00:00Z' } as CustomerEvent)).toBeUndefined();
    expect(observations.size).toBe(0);
  });

  it('keeps the 3-D Secure redirect the provider asks for while the payer owes it, and drops it once completed', () => {
    const observations = new Map<string, BindingObservation>();
    foldEvent(observations, event(1, started('b1', 'pending')));
    foldEvent(observations, event(2, requested('b1')));
    expect(observations.get('b1')).toMatchObject({
      status: 'pending',
      interaction: {
        type: 'redirect',
        method: 'POST',
        url: 'https://acs.example/check',
        form: { PaReq: 'secret', MD: 'b1', TermUrl: 'https://provider.example/term' },
      },
    });
    expect(foldEvent(observations, event(3, { changeType: 'CustomerBindingInteractionCompleted', customerBindingID: 'b1' }))).toBeUndefined();
    expect(observations.get('b1')?.interaction).toBeNull();
  });
});

const requested = (id: string): CustomerChange => ({
  changeType: 'CustomerBindingInteractionRequested',
  customerBindingID: id,
  userInteraction: {
    interactionType: 'Redirect',
    request: {
      requestType: 'BrowserPostRequest',
      uriTemplate: 'https://acs.example/check',
      form: [
        { key: 'PaReq', template: 'secret' },
        { key: 'MD', template: id },
        { key: 'TermUrl', template: 'https://provider.example/term{?termination_uri}' },
      ],
    },
  },
});

describe('mergeStatus', () => {
  it('never lets a replayed or stale pending undo a final outcome', () => {
    expect(mergeStatus('succeeded', 'pending')).toBe('succeeded');
    expect(mergeStatus('failed', 'pending')).toBe('failed');
  });

  it('takes any other observed status, and keeps the current one when nothing was observed', () => {
    expect(mergeStatus('unknown', 'pending')).toBe('pending');
    expect(mergeStatus('pending', 'succeeded')).toBe('succeeded');
    expect(mergeStatus('succeeded', 'failed')).toBe('failed');
    expect(mergeStatus('unknown', undefined)).toBe('unknown');
  });
});

describe('bindingPatch', () => {
  const row = { providerBindingId: null, status: 'unknown' as const, errorCode: null, cardBin: null, cardLastDigits: null, interaction: null };

  it('records the provider id, the status, the failure code and a first card', () => {
    const observation: BindingObservation = {
      providerBindingId: 'b1',
      status: 'failed',
      errorCode: 'expired_card',
      card: { bin: '555555', lastDigits: '4444', paymentSystem: 'mastercard' },
    };
    expect(bindingPatch(row, observation)).toEqual({
      providerBindingId: 'b1',
      status: 'failed',
      errorCode: 'expired_card',
      cardBin: '555555',
      cardLastDigits: '4444',
      cardPaymentSystem: 'mastercard',
    });
  });

  it('changes nothing when the row already says it all, and never replaces a known card', () => {
    const known = { providerBindingId: 'b1', status: 'succeeded' as const, errorCode: null, cardBin: '424242', cardLastDigits: '4242', interaction: null };
    const observation: BindingObservation = { providerBindingId: 'b1', status: 'pending', card: { bin: '555555', lastDigits: '4444', paymentSystem: null } };
    expect(bindingPatch(known, observation)).toEqual({});
  });

  it('keeps an earlier failure code when the new observation has none, and clears it once no longer failed', () => {
    const failed = { providerBindingId: 'b1', status: 'failed' as const, errorCode: 'declined', cardBin: null, cardLastDigits: null, interaction: null };
    expect(bindingPatch(failed, { providerBindingId: 'b1', status: 'failed' })).toEqual({});
    expect(bindingPatch(failed, { providerBindingId: 'b1', status: 'succeeded', errorCode: null })).toEqual({ status: 'succeeded', errorCode: null });
  });
});

describe('bindingPatch and the payer interaction', () => {
  const redirect = { type: 'redirect' as const, method: 'GET' as const, url: 'https://acs.example/check?MD=b1' };
  const waiting = { providerBindingId: 'b1', status: 'pending' as const, errorCode: null, cardBin: '401288', cardLastDigits: '1881', interaction: null };

  it('records the redirect, keeps it while nothing new is said, and clears it once completed', () => {
    expect(bindingPatch(waiting, { providerBindingId: 'b1', interaction: redirect })).toEqual({ interaction: redirect });
    const asked = { ...waiting, interaction: redirect };
    expect(bindingPatch(asked, { providerBindingId: 'b1' })).toEqual({});
    expect(bindingPatch(asked, { providerBindingId: 'b1', interaction: null })).toEqual({ interaction: null });
  });

  it('never shows a redirect on a final binding, even when the completion was never reported (a timeout)', () => {
    const asked = { ...waiting, interaction: redirect };
    expect(bindingPatch(asked, { providerBindingId: 'b1', status: 'failed', errorCode: 'preauthorization_failed' })).toEqual({
      status: 'failed',
      errorCode: 'preauthorization_failed',
      interaction: null,
    });
    expect(newObservedBinding('c1', { providerBindingId: 'b1', status: 'succeeded', interaction: redirect }).interaction).toBeNull();
    expect(newObservedBinding('c1', { providerBindingId: 'b1', status: 'pending', interaction: redirect }).interaction).toEqual(redirect);
  });
});

describe('newObservedBinding', () => {
  it('is a row without externalId, pending when no status was seen, with a failure code only when failed', () => {
    expect(newObservedBinding('c1', { providerBindingId: 'b1' })).toEqual({
      customerId: 'c1',
      providerBindingId: 'b1',
      externalId: null,
      status: 'pending',
      errorCode: null,
      cardBin: null,
      cardLastDigits: null,
      cardPaymentSystem: null,
      interaction: null,
    });
    expect(newObservedBinding('c1', { providerBindingId: 'b2', status: 'succeeded', errorCode: 'stale' }).errorCode).toBeNull();
    expect(newObservedBinding('c1', { providerBindingId: 'b3', status: 'failed', errorCode: 'declined' }).errorCode).toBe('declined');
  });
});
