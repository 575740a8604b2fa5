import type { UserInteraction } from '../gateway/provider-api.types';

/**
 * What the provider asks of the payer before a binding can finish (3-D Secure), in the admin API's words: send the
 * payer's browser to `url` with `method`, posting `form` as hidden fields when there is one.
 */
export interface BindingInteraction {
  type: 'redirect';
  method: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
}

const MAX_URL_LENGTH = 2000;
const MAX_FORM_FIELDS = 20;
const MAX_FIELD_LENGTH = 4000;

/**
 * URI templates (RFC 6570) expanded with no values: an expression such as `{?termination_uri}` then expands to
 * nothing. The merchant who wants the payer back on its own page passes `termination_uri` itself.
 */
function expandWithoutValues(template: string): string {
  return template.replace(/\{[^{}]*\}/g, '');
}

function usableUrl(template: unknown): string | undefined {
  if (typeof template !== 'string') return undefined;
  const url = expandWithoutValues(template);
  if (url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(url)) return undefined;
  return URL.canParse(url) ? url : undefined;
}

/**
 * The provider's user interaction as the admin API shows it; null for anything but a browser redirect with a usable
 * http(s) address (the daemon never passes on what it cannot vouch for).
 */
export function toBindingInteraction(interaction: UserInteraction | undefined): BindingInteraction | null {
  if (interaction?.interactionType !== 'Redirect' || typeof interaction.request !== 'object' || interaction.request === null) return null;
  const request = interaction.request;
  const url = usableUrl(request.uriTemplate);
  if (url === undefined) return null;
  if (request.requestType === 'BrowserGetRequest') return { type: 'redirect', method: 'GET', url };
  if (request.requestType !== 'BrowserPostRequest' || !Array.isArray(request.form) || request.form.length > MAX_FORM_FIELDS) return null;
  const form: Record<string, string> = {};
  for (const field of request.form as unknown[]) {
    const { key, template } = (field ?? {}) as { key?: unknown; template?: unknown };
    if (typeof key !== 'string' || typeof template !== 'string' || key === '' || key.length > 100 || template.length > MAX_FIELD_LENGTH) return null;
    form[key] = expandWithoutValues(template);
  }
  return { type: 'redirect', method: 'POST', url, form };
}

/** The interaction in its documented field order (a jsonb column keeps no key order). */
export function presentInteraction(interaction: BindingInteraction | null): BindingInteraction | null {
  if (!interaction) return null;
  const { type, method, url, form } = interaction;
  return { type, method, url, ...(form !== undefined && { form }) };
}

export function sameInteraction(a: BindingInteraction | null, b: BindingInteraction | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
