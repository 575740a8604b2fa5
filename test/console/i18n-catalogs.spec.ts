import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The console's English and Russian catalogs (console/src/i18n) say the same things: the same keys, no empty text, the
 * same placeholders and tags, every plural in the forms its language needs (Intl.PluralRules: English one/other,
 * Russian one/few/many/other), and Russian text in Russian.
 */
const I18N = join(__dirname, '..', '..', 'console', 'src', 'i18n');
const LANGUAGES = ['en', 'ru'] as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const catalogs = Object.fromEntries(LANGUAGES.map((l) => [l, flatten(JSON.parse(readFileSync(join(I18N, `${l}.json`), 'utf8')) as Tree)])) as Record<
  (typeof LANGUAGES)[number],
  Map<string, string>
>;

/** Key → the plural forms it has ('' for a key that is not a plural). */
function forms(catalog: Map<string, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of catalog.keys()) {
    const match = PLURAL.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    out.set(base, (out.get(base) ?? new Set()).add(match ? match[1] : ''));
  }
  return out;
}

/** The {{placeholders}} and <tags/> of a text, which the other language must have too. */
const slots = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)\/>/g)].map((m) => m[1] ?? `<${m[2]}/>`))].sort();

/** Russian texts that rightly hold no Cyrillic: a placeholder alone, an abbreviation, a code, a language's own name. */
const RU_WITHOUT_CYRILLIC = new Set([
  'common.percent',
  'error.detail',
  'languages.en',
  'dashboard.mrr',
  'revenue.mrrSeries',
  'col.url',
  'col.http',
  'endpoints.url',
  'endpoints.urlPlaceholder',
  'endpoint.url',
  'customer.source.api',
  'plan.every',
  'charge.ladderText',
]);

describe('the console catalogs', () => {
  it('have the same keys in English and Russian', () => {
    const [en, ru] = [forms(catalogs.en), forms(catalogs.ru)];
    expect({ onlyInEnglish: [...en.keys()].filter((k) => !ru.has(k)), onlyInRussian: [...ru.keys()].filter((k) => !en.has(k)) }).toEqual({ onlyInEnglish: [], onlyInRussian: [] });
  });

  it('have no empty text', () => {
    const empty = LANGUAGES.flatMap((l) => [...catalogs[l]].filter(([, v]) => v.trim() === '').map(([k]) => `${l}: ${k}`));
    expect(empty).toEqual([]);
  });

  it('give every plural the forms its language needs, and no other', () => {
    const wrong: string[] = [];
    for (const language of LANGUAGES) {
      const needed = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
      for (const [base, has] of forms(catalogs[language])) {
        if (has.has('') && has.size === 1) continue;
        const got = [...has].sort();
        if (has.has('') || JSON.stringify(got) !== JSON.stringify(needed)) wrong.push(`${language}: ${base} has ${got.join(',')}, needs ${needed.join(',')}`);
      }
    }
    expect(wrong).toEqual([]);
    // The checks above are only as good as the rules they read: Russian needs four forms.
    expect([...new Intl.PluralRules('ru').resolvedOptions().pluralCategories].sort()).toEqual(['few', 'many', 'one', 'other']);
  });

  it('use the same placeholders and tags in both languages', () => {
    const differ: string[] = [];
    for (const [key, english] of catalogs.en) {
      const base = key.replace(PLURAL, '');
      const russian = [...catalogs.ru].filter(([k]) => k.replace(PLURAL, '') === base).map(([, v]) => v);
      for (const text of russian) if (JSON.stringify(slots(text)) !== JSON.stringify(slots(english))) differ.push(`${key}: ${slots(english).join(' ')} / ${slots(text).join(' ')}`);
    }
    expect([...new Set(differ)]).toEqual([]);
  });

  it('hold Russian text in the Russian catalog', () => {
    const untranslated = [...catalogs.ru].filter(([k, v]) => !/\p{Script=Cyrillic}/u.test(v) && !RU_WITHOUT_CYRILLIC.has(k)).map(([k, v]) => `${k}: ${v}`);
    expect(untranslated).toEqual([]);
  });

  it('say 1 попытка, 2 попытки, 5 попыток with the rules i18next uses', () => {
    const pick = (n: number) => catalogs.ru.get(`dashboard.failedInARow_${new Intl.PluralRules('ru').select(n)}`)?.replace('{{count}}', String(n));
    expect([1, 2, 5, 21].map(pick)).toEqual(['— 1 неудачная попытка подряд', '— 2 неудачные попытки подряд', '— 5 неудачных попыток подряд', '— 21 неудачная попытка подряд']);
  });
});
