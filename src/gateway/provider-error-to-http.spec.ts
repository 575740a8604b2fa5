import { ProviderError, ProviderErrorKind } from './provider-error';
import { httpErrorForProvider } from './provider-error-to-http';

const failed = (kind: ProviderErrorKind, extra: Partial<ConstructorParameters<typeof ProviderError>[0]> = {}) =>
  new ProviderError({ kind, operation: 'createCustomer', ...extra });

describe('httpErrorForProvider', () => {
  it.each([
    ['invalid_request', 422, 'provider_refused'],
    ['business_rule', 422, 'provider_refused'],
    ['not_found', 422, 'provider_refused'],
    ['conflict', 409, 'provider_conflict'],
    ['not_executed', 503, 'provider_unavailable'],
    ['unauthorized', 502, undefined],
    ['unexpected', 502, undefined],
  ] as const)('answers %s with %i', (kind, status, code) => {
    const error = httpErrorForProvider(failed(kind), 'create the customer');
    expect(error.getStatus()).toBe(status);
    if (code) expect(error.getResponse()).toMatchObject({ code });
  });

  it('answers an unknown outcome 504 on every route, the same whether a field is named or not', () => {
    for (const field of [undefined, 'card']) {
      const error = httpErrorForProvider(failed('unknown_outcome'), 'create the destination', field);
      expect(error.getStatus()).toBe(504);
      expect(String((error.getResponse() as { message: string }).message)).toContain('is unknown');
    }
  });

  it('names the field a refusal is about, with the provider code', () => {
    const error = httpErrorForProvider(failed('invalid_request', { code: 'invalidPaymentTool', providerMessage: 'Card expired' }), 'create the destination', 'card');
    expect(error.getResponse()).toMatchObject({ code: 'provider_refused', field: 'card', providerCode: 'invalidPaymentTool', message: ['card: the provider refused it (invalidPaymentTool: Card expired)'] });
  });
});
