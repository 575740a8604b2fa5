import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const I18N = join(__dirname, '..', '..', '..', 'console', 'src', 'i18n');

/** A token with a dot, @, slash, underscore, colon or digit inside: an identifier (an env variable, a scope), not prose. */
const IDENTIFIER = /[\p{L}\p{N}][._@/:\d]|_/u;

type Tree = { [key: string]: string | Tree };
const values = (tree: Tree): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));
/**
 * The Latin words of a catalog's texts, placeholders and tags left out, and identifiers too (as englishOn leaves them
 * out of a page): a Russian text that names BILLING_MAX_ATTEMPTS_PER_CARD_30D or plans:read must not make "attempts"
 * or "plans" count as Russian.
 */
const latinWords = (language: string) =>
  new Set(
    values(JSON.parse(readFileSync(join(I18N, `${language}.json`), 'utf8')) as Tree)
      .map((text) => text.replace(/\{\{\s*\w+\s*\}\}|<\/?\w+\/?>/g, ' '))
      .flatMap((text) => text.split(/\s+/))
      .filter((token) => !IDENTIFIER.test(token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')))
      .flatMap((token) => token.match(/[A-Za-z]+/g) ?? [])
      .map((word) => word.toLowerCase()),
  );

/** Names that are the same in any language: abbreviations and codes the Russian console shows too. */
const SAME_IN_ANY_LANGUAGE = new Set(['mrr', 'utc', 'rub', 'usd', 'eur', 'url', 'http', 'api', 'csv', 'json', 'ms']);

/** Words of the English catalog that the Russian one never uses: seeing one on a Russian screen means English leaked. */
export const ENGLISH_ONLY = new Set([...latinWords('en')].filter((w) => !latinWords('ru').has(w) && !SAME_IN_ANY_LANGUAGE.has(w)));

/**
 * The words a person reads or hears on the page (text, aria-label, title, placeholder) that belong to the English
 * catalog only. Code and identifiers (an event type, an email, a time zone, an error code) are not prose and are left out.
 */
export async function englishOn(page: Page): Promise<string[]> {
  const texts = await page.locator('body').evaluate((body) => {
    const out: string[] = [];
    // NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, and Node.TEXT_NODE (this file is compiled without the DOM's globals).
    const walker = body.ownerDocument.createTreeWalker(body, 0x1 | 0x4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 3) {
        const parent = node.parentElement;
        if (parent && !parent.closest('code, pre, script, style, .mantine-Code-root') && parent.getClientRects().length > 0) out.push(node.textContent ?? '');
      } else {
        const element = node as typeof body;
        for (const name of ['aria-label', 'title', 'placeholder']) {
          const value = element.getAttribute(name);
          if (value) out.push(value);
        }
      }
    }
    return out;
  });
  const leaked = new Set<string>();
  for (const token of texts.join(' ').split(/\s+/)) {
    const word = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    // An identifier (has a dot, @, slash, underscore, colon, digit or hyphen inside) is not prose.
    if (!/^[A-Za-z]+$/.test(word)) continue;
    if (ENGLISH_ONLY.has(word.toLowerCase())) leaked.add(word);
  }
  return [...leaked].sort();
}
