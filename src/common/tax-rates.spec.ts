import fc from 'fast-check';
import { DEFAULT_TAX_RATES, FORMER_TAX_RATES, isTaxRateSyntax, parseTaxRateList } from './tax-rates';

const percent = fc.integer({ min: 0, max: 99 }).map((n) => `${n}%`);
const fraction = fc.integer({ min: 1, max: 99 }).map((n) => `${n}/${100 + n}`);
const rate = fc.oneof(percent, fraction);

describe('VAT rates', () => {
  it('accepts every N% from 0 to 99 and every N/(100+N) from 1 to 99', () => {
    fc.assert(fc.property(rate, (r) => isTaxRateSyntax(r)));
  });

  it('refuses fractions whose denominator is not 100 + N, percentages from 100 up, leading zeros and spaces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100, max: 999 }), (n, d) => isTaxRateSyntax(`${n}/${d}`) === (d === 100 + n)),
    );
    fc.assert(fc.property(fc.integer({ min: 100, max: 10_000 }), (n) => !isTaxRateSyntax(`${n}%`)));
    for (const bad of ['', '%', '22', '22 %', ' 22%', '022%', '00%', '-5%', '22.5%', '0/100', '22/122 ', 'twenty%', '22%%']) {
      expect(isTaxRateSyntax(bad)).toBe(false);
    }
  });

  it('parses the default list into the rates in force in 2026, the former ones not among them', () => {
    const parsed = parseTaxRateList(DEFAULT_TAX_RATES);
    expect(parsed).toEqual({ rates: ['0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122'] });
    for (const former of FORMER_TAX_RATES) expect('rates' in parsed && parsed.rates.includes(former)).toBe(false);
  });

  it('parses any list of distinct rates back to the same rates, whatever spaces surround them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(rate, { minLength: 1, maxLength: 20 }), fc.array(fc.constantFrom('', ' ', '  '), { minLength: 40, maxLength: 40 }), (rates, pads) => {
        const text = rates.map((r, i) => `${pads[2 * i]}${r}${pads[2 * i + 1]}`).join(',');
        expect(parseTaxRateList(text)).toEqual({ rates });
      }),
    );
  });

  it('refuses a list with a duplicate, an empty entry or a non-rate, naming the variable and the entry', () => {
    expect(parseTaxRateList('22%,10%,22%')).toEqual({ error: 'BILLING_TAX_RATES lists 22% twice' });
    expect(parseTaxRateList('')).toMatchObject({ error: expect.stringContaining('at least one rate') });
    expect(parseTaxRateList('22%,,10%')).toMatchObject({ error: expect.stringContaining('"" is not a VAT rate') });
    expect(parseTaxRateList('22%,22/120')).toMatchObject({ error: expect.stringMatching(/^BILLING_TAX_RATES: "22\/120" is not a VAT rate/) });
  });
});
