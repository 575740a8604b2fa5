import type { UserInteraction } from '../../src/gateway/provider-api.types';
import { SandboxControl } from './sandbox-control';

/** The payer's browser, for the pages the daemon sends a payer to: the hosted form, and the ACS page of a 3-D Secure check. */

/** Where a 3-D Secure redirect sends the payer's browser, in the daemon's words. */
export interface BrowserRedirect {
  method: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
}

/** A page the sandbox showed the payer. */
export interface PayerPage {
  status: number;
  html: string;
  /** Lower-case names. */
  headers: Record<string, string>;
}

/** A hidden field of the ACS page (MD names the binding, PaReq is its secret); '' when absent. */
export function acsField(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** The provider's redirect as a browser follows it (template expressions left empty, as RFC 6570 does without values). */
export function redirectOf(interaction: UserInteraction): BrowserRedirect {
  const { request } = interaction;
  if (request.requestType === 'BrowserGetRequest') return { method: 'GET', url: request.uriTemplate };
  return { method: 'POST', url: request.uriTemplate, form: Object.fromEntries(request.form.map((f) => [f.key, f.template.replace(/\{[^}]*\}/g, '')])) };
}

/** Opens a link the daemon handed out for the payer (a hosted form link, a GET redirect) as a browser does. */
export async function openLink(url: string): Promise<PayerPage> {
  return pageOf(await fetch(url));
}

/** Opens the sandbox's ACS page as the redirect says. */
export async function openAcsPage(redirect: BrowserRedirect): Promise<PayerPage> {
  if (redirect.method === 'GET') return openLink(redirect.url);
  const response = await fetch(redirect.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(redirect.form ?? {}).toString(),
  });
  return pageOf(response);
}

/** What the payer does at the sandbox's ACS page: open it and press Confirm. Answers the page shown after. */
export async function confirmThreeDs(redirect: BrowserRedirect): Promise<PayerPage> {
  const page = await openAcsPage(redirect);
  if (page.status !== 200) throw new Error(`the ACS page answered ${page.status}: ${page.html}`);
  const control = new SandboxControl(new URL(redirect.url).origin);
  const confirmed = await control.confirmAcs({ MD: acsField(page.html, 'MD'), PaReq: acsField(page.html, 'PaReq') });
  return { status: confirmed.status, html: confirmed.data, headers: confirmed.headers as Record<string, string> };
}

async function pageOf(response: Response): Promise<PayerPage> {
  return { status: response.status, html: await response.text(), headers: Object.fromEntries(response.headers.entries()) };
}
