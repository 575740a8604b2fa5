import type { UserInteraction } from '../gateway/provider-api.types';
import { toBindingInteraction } from './binding-interaction';

describe('toBindingInteraction', () => {
  it('turns a POST redirect into a method, an address and the hidden fields, template expressions left empty', () => {
    const interaction: UserInteraction = {
      interactionType: 'Redirect',
      request: {
        requestType: 'BrowserPostRequest',
        uriTemplate: 'https://acs.example/pareq',
        form: [
          { key: 'PaReq', template: 'abc' },
          { key: 'TermUrl', template: 'https://provider.example/term{?termination_uri}' },
        ],
      },
    };
    expect(toBindingInteraction(interaction)).toEqual({
      type: 'redirect',
      method: 'POST',
      url: 'https://acs.example/pareq',
      form: { PaReq: 'abc', TermUrl: 'https://provider.example/term' },
    });
  });

  it('turns a GET redirect into its address', () => {
    const interaction: UserInteraction = { interactionType: 'Redirect', request: { requestType: 'BrowserGetRequest', uriTemplate: 'http://127.0.0.1:8081/sandbox/acs?MD=b1&PaReq=s' } };
    expect(toBindingInteraction(interaction)).toEqual({ type: 'redirect', method: 'GET', url: 'http://127.0.0.1:8081/sandbox/acs?MD=b1&PaReq=s' });
  });

  it.each([
    ['no interaction', undefined],
    ['another interaction type', { interactionType: 'QrCodeDisplayRequest' }],
    ['a script address', { interactionType: 'Redirect', request: { requestType: 'BrowserGetRequest', uriTemplate: 'javascript:alert(1)' } }],
    ['a relative address', { interactionType: 'Redirect', request: { requestType: 'BrowserGetRequest', uriTemplate: '/acs' } }],
    ['a form that is not a list', { interactionType: 'Redirect', request: { requestType: 'BrowserPostRequest', uriTemplate: 'https://a.example', form: 'x' } }],
    ['a field without a key', { interactionType: 'Redirect', request: { requestType: 'BrowserPostRequest', uriTemplate: 'https://a.example', form: [{ template: 'x' }] } }],
  ])('passes nothing on for %s', (_name, interaction) => {
    expect(toBindingInteraction(interaction as UserInteraction | undefined)).toBeNull();
  });
});
