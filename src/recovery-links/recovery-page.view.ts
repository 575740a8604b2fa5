import { createHash } from 'node:crypto';
import { PAGE_TEXTS, PageLanguage } from './recovery-page-texts';

/** The page's only style, inline and allowed by its hash: nothing is loaded from anywhere. Contrast ≥ 7:1 on white. */
const STYLE = [
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1a1b1e;line-height:1.5}',
  'main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}',
  '.card{background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}',
  'h1{font-size:1.5rem;margin:0 0 .5rem}',
  'dl{margin:1.25rem 0;display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}',
  'dt{color:#3d4147}',
  'dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}',
  'button{width:100%;min-height:3rem;font-size:1.05rem;font-weight:600;color:#fff;background:#1c4fb8;border:0;border-radius:.5rem;cursor:pointer}',
  'button:focus-visible{outline:3px solid #0b2a66;outline-offset:2px}',
].join('');

export const RECOVERY_PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The strict policy of every recovery page: no script, no foreign load; forms only to itself and the card form. */
export function recoveryPagePolicy(checkoutOrigin: string | null): string {
  return [
    "default-src 'none'",
    `style-src ${RECOVERY_PAGE_STYLE_HASH}`,
    `form-action 'self'${checkoutOrigin ? ` ${checkoutOrigin}` : ''}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface RecoveryPageModel {
  amount: string;
  plan: string;
  card: string | null;
  /** Where the button posts: this page's own path. */
  action: string;
}

/** What a link that cannot be used says: paid, expired, revoked, no longer due, or the form is unavailable. */
export type ClosedReason = 'paid' | 'expired' | 'revoked' | 'closed' | 'unavailable';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function layout(language: PageLanguage, title: string, body: string): string {
  return [
    '<!doctype html>',
    `<html lang="${language}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escape(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    `<body><main><div class="card">${body}</div></main></body>`,
    '</html>',
  ].join('\n');
}

/** The page that shows what is due and offers the card form. */
export function renderRecoveryPage(language: PageLanguage, model: RecoveryPageModel): string {
  const t = PAGE_TEXTS[language];
  const body = [
    `<h1>${escape(t.heading)}</h1>`,
    `<p>${escape(t.intro)}</p>`,
    '<dl>',
    `<dt>${escape(t.amountDue)}</dt><dd>${escape(model.amount)}</dd>`,
    `<dt>${escape(t.plan)}</dt><dd>${escape(model.plan)}</dd>`,
    `<dt>${escape(t.currentCard)}</dt><dd>${escape(model.card ?? t.noCard)}</dd>`,
    '</dl>',
    `<form method="post" action="${escape(model.action)}">`,
    `<button type="submit" aria-label="${escape(t.buttonLabel)}">${escape(t.button)}</button>`,
    '</form>',
  ].join('\n');
  return layout(language, t.title, body);
}

/** The page of a link that leads nowhere now. */
export function renderClosedPage(language: PageLanguage, reason: ClosedReason): string {
  const t = PAGE_TEXTS[language];
  const [heading, text] = {
    paid: [t.paidHeading, t.paidBody],
    expired: [t.expiredHeading, t.expiredBody],
    revoked: [t.revokedHeading, t.revokedBody],
    closed: [t.closedHeading, t.closedBody],
    unavailable: [t.unavailableHeading, t.unavailableBody],
  }[reason];
  return layout(language, heading, `<h1>${escape(heading)}</h1>\n<p>${escape(text)}</p>`);
}
