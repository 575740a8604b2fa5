import type { UserInteraction } from '../../src/gateway/provider-api.types';

/** Where a 3-D Secure redirect sends the payer's browser, in the daemon's words. */
export interface BrowserRedirect {
  method: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
}

/** The provider's redirect as a browser follows it (template expressions left empty, as RFC 6570 does without values). */
export function redirectOf(interaction: UserInteraction): BrowserRedirect {
  const { request } = interaction;
  if (request.requestType === 'BrowserGetRequest') return { method: 'GET', url: request.uriTemplate };
  return { method: 'POST', url: request.uriTemplate, form: Object.fromEntries(request.form.map((f) => [f.key, f.template.replace(/\{[^}]*\}/g, '')])) };
}

/** Opens the sandbox's ACS page as the redirect says. */
export async function openAcsPage(redirect: BrowserRedirect): Promise<{ status: number; html: string }> {
  const response =
    redirect.method === 'GET'
      ? await fetch(redirect.url)
      : await fetch(redirect.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(redirect.form ?? {}).toString(),
        });
  return { status: response.status, html: await response.text() };
}

/** What the payer does at the sandbox's ACS page: open it and press Confirm. Answers the page shown after. */
export async function confirmThreeDs(redirect: BrowserRedirect): Promise<{ status: number; html: string }> {
  const page = await openAcsPage(redirect);
  if (page.status !== 200) throw new Error(`the ACS page answered ${page.status}: ${page.html}`);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.html)?.[1] ?? '';
  const response = await fetch(new URL('/sandbox/acs/confirm', redirect.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ MD: field('MD'), PaReq: field('PaReq') }).toString(),
  });
  return { status: response.status, html: await response.text() };
}
