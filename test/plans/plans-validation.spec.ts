import type { Plan } from '../../src/plans/plan.entity';
import type { TestApp } from '../support/test-app';
import { resetDatabase } from '../support/test-database';
import { Body, messages, UNKNOWN_ID, usePlansApp, validPlan } from './support/plans-fixtures';

let t: TestApp;
let plans: () => Promise<Plan[]>;

usePlansApp((started) => ({ t, plans } = started));

describe('POST /api/v1/plans validation: 400 naming the field, nothing stored', () => {
  const long = (n: number) => 'x'.repeat(n);
  const line = (overrides: Body) => ({ lines: [{ product: 'Seat', price: 100, ...overrides }] });
  const without = (field: string) => (body: Body) => {
    const copy = { ...body };
    delete copy[field];
    return copy;
  };
  const withoutLineField = (field: string) => (body: Body) => {
    const first = { ...(body.lines as Body[])[0] };
    delete first[field];
    return { ...body, lines: [first] };
  };
  const deep = (levels: number): unknown => (levels === 0 ? 'leaf' : { n: deep(levels - 1) });

  // [what, body change, the start of a message that names the field]
  const cases: [string, Body | ((body: Body) => Body), string][] = [
    ['name missing', without('name'), 'name must'],
    ['name empty', { name: '' }, 'name must'],
    ['name 101 chars', { name: long(101) }, 'name must'],
    ['name a number', { name: 5 }, 'name must'],
    ['name null', { name: null }, 'name must'],
    ['name with NUL', { name: 'a\u0000b' }, 'name must be valid Unicode text'],
    ['name with a lone surrogate', { name: 'a\ud800b' }, 'name must be valid Unicode text'],
    ['line product with NUL', line({ product: '\u0000' }), 'lines.0.product must be valid Unicode text'],
    ['product missing', without('product'), 'product must'],
    ['product empty', { product: '' }, 'product must'],
    ['product 101 chars', { product: long(101) }, 'product must'],
    ['product an array', { product: ['x'] }, 'product must'],
    ['description 1001 chars', { description: long(1001) }, 'description must'],
    ['description a number', { description: 1 }, 'description must'],
    ['description null', { description: null }, 'description must'],
    ['currency lower case', { currency: 'rub' }, 'currency must'],
    ['currency 4 letters', { currency: 'RUBX' }, 'currency must'],
    ['currency a number', { currency: 643 }, 'currency must'],
    ['currency missing', without('currency'), 'currency must'],
    ['interval unknown', { interval: 'fortnight' }, 'interval must'],
    ['interval capitalised', { interval: 'Month' }, 'interval must'],
    ['interval missing', without('interval'), 'interval must'],
    ['intervalCount 0', { intervalCount: 0 }, 'intervalCount must'],
    ['intervalCount negative', { intervalCount: -1 }, 'intervalCount must'],
    ['intervalCount fractional', { intervalCount: 1.5 }, 'intervalCount must'],
    ['intervalCount a string', { intervalCount: '1' }, 'intervalCount must'],
    ['intervalCount null', { intervalCount: null }, 'intervalCount must'],
    ['37 months', { interval: 'month', intervalCount: 37 }, 'intervalCount must make one period at most 3 years'],
    ['157 weeks', { interval: 'week', intervalCount: 157 }, 'intervalCount must make one period at most 3 years'],
    ['1097 days', { interval: 'day', intervalCount: 1097 }, 'intervalCount must make one period at most 3 years'],
    ['4 years', { interval: 'year', intervalCount: 4 }, 'intervalCount must make one period at most 3 years'],
    ['trialDays negative', { trialDays: -1 }, 'trialDays must'],
    ['trialDays 731', { trialDays: 731 }, 'trialDays must'],
    ['trialDays fractional', { trialDays: 0.5 }, 'trialDays must'],
    ['trialDays a string', { trialDays: '7' }, 'trialDays must'],
    ['lines missing', without('lines'), 'lines must'],
    ['lines empty', { lines: [] }, 'lines must'],
    ['lines 101', { lines: Array.from({ length: 101 }, () => ({ product: 'x', price: 1 })) }, 'lines must'],
    ['lines an object', { lines: { product: 'x', price: 1 } }, 'lines must'],
    ['lines a string', { lines: 'x' }, 'lines must'],
    ['a line a number', { lines: [5] }, 'lines'],
    ['a line an array', { lines: [[{ product: 'x', price: 1 }]] }, 'each value in lines must be an object'],
    ['a line null', { lines: [null] }, 'lines'],
    ['line product missing', withoutLineField('product'), 'lines.0.product must'],
    ['line product empty', line({ product: '' }), 'lines.0.product must'],
    ['line product 1001 chars', line({ product: long(1001) }), 'lines.0.product must'],
    ['line product a number', line({ product: 5 }), 'lines.0.product must'],
    ['line price missing', withoutLineField('price'), 'lines.0.price must'],
    ['line price a string', line({ price: '5' }), 'lines.0.price must'],
    ['line price 0', line({ price: 0 }), 'lines.0.price must'],
    ['line price negative', line({ price: -100 }), 'lines.0.price must'],
    ['line price fractional', line({ price: 10.5 }), 'lines.0.price must'],
    ['line price null', line({ price: null }), 'lines.0.price must'],
    ['line price over 10^15', line({ price: 1_000_000_000_000_001 }), 'lines.0.price must'],
    ['line price not a safe integer', line({ price: 2 ** 60 }), 'lines.0.price must'],
    ['line quantity 0', line({ quantity: 0 }), 'lines.0.quantity must'],
    ['line quantity a string', line({ quantity: '2' }), 'lines.0.quantity must'],
    ['line quantity fractional', line({ quantity: 1.5 }), 'lines.0.quantity must'],
    ['line quantity null', line({ quantity: null }), 'lines.0.quantity must'],
    ['line taxRate not a rate', line({ taxRate: '13' }), 'lines.0.taxRate must be a VAT rate'],
    ['line taxRate not in force', line({ taxRate: '20%' }), 'lines.0.taxRate must be one of the VAT rates in force'],
    ['line taxRate a bad fraction', line({ taxRate: '22/120' }), 'lines.0.taxRate must be a VAT rate'],
    ['line taxRate a number', line({ taxRate: 20 }), 'lines.0.taxRate must'],
    ['line with an unknown field', line({ discount: 5 }), 'lines.0.property discount should not exist'],
    ['second line bad', { lines: [{ product: 'a', price: 1 }, { product: 'b', price: -1 }] }, 'lines.1.price must'],
    ['total over 10^15', { lines: [{ product: 'a', price: 1_000_000_000_000_000 }, { product: 'b', price: 1 }] }, 'lines must add up'],
    ['price × quantity overflows', line({ price: 1_000_000_000_000_000, quantity: 1_000_000_000_000_000 }), 'lines must add up'],
    ['shopId empty', { shopId: '' }, 'shopId must'],
    ['shopId 41 chars', { shopId: long(41) }, 'shopId must'],
    ['shopId a number', { shopId: 5 }, 'shopId must'],
    ['shopId null', { shopId: null }, 'shopId must'],
    ['dunning a string', { dunning: '1d' }, 'dunning'],
    ['dunning an array', { dunning: [] }, 'dunning must'],
    ['dunning null', { dunning: null }, 'dunning must'],
    ['dunning without finalAction', { dunning: { retryDelays: ['1d'] } }, 'dunning.finalAction must'],
    ['dunning without retryDelays', { dunning: { finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning finalAction unknown', { dunning: { retryDelays: [], finalAction: 'pause' } }, 'dunning.finalAction must'],
    ['dunning 16 delays', { dunning: { retryDelays: Array(16).fill('1d'), finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning delay not a duration', { dunning: { retryDelays: ['1x'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay a number', { dunning: { retryDelays: [86400], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay 0d', { dunning: { retryDelays: ['0d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay under a minute', { dunning: { retryDelays: ['30s'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay over a year', { dunning: { retryDelays: ['400d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delay with spaces', { dunning: { retryDelays: [' 1d'], finalAction: 'cancel' } }, 'dunning.each value in retryDelays'],
    ['dunning delays a string', { dunning: { retryDelays: '1d,3d', finalAction: 'cancel' } }, 'dunning.retryDelays must'],
    ['dunning unknown field', { dunning: { retryDelays: [], finalAction: 'cancel', ladder: 3 } }, 'dunning.property ladder should not exist'],
    ['dunning strategy unknown', { dunning: { strategy: 'clever', finalAction: 'cancel' } }, 'dunning.strategy must'],
    ['dunning smart with retryDelays', { dunning: { strategy: 'smart', retryDelays: ['1d'], finalAction: 'cancel' } }, 'dunning.retryDelays belongs to the fixed strategy'],
    ['dunning maxDays 0', { dunning: { strategy: 'smart', maxDays: 0, finalAction: 'cancel' } }, 'dunning.maxDays must'],
    ['dunning maxDays 91', { dunning: { strategy: 'smart', maxDays: 91, finalAction: 'cancel' } }, 'dunning.maxDays must'],
    ['dunning maxDays fractional', { dunning: { strategy: 'smart', maxDays: 1.5, finalAction: 'cancel' } }, 'dunning.maxDays must'],
    ['metadata an array', { metadata: ['a'] }, 'metadata must be a JSON object'],
    ['metadata a string', { metadata: 'a' }, 'metadata must be a JSON object'],
    ['metadata null', { metadata: null }, 'metadata must be a JSON object'],
    ['metadata 51 keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata must have at most 50 keys'],
    ['metadata over 16 KB', { metadata: { blob: long(16 * 1024) } }, 'metadata must be at most 16384 bytes'],
    ['metadata an empty key', { metadata: { '': 1 } }, 'metadata keys must be'],
    ['metadata nested 12 levels', { metadata: deep(12) as Body }, 'metadata must be nested at most 10 levels'],
    ['metadata with NUL', { metadata: { note: 'a\u0000b' } }, 'metadata.note must be valid Unicode text'],
    ['metadata key with NUL', { metadata: { 'a\u0000': 1 } }, 'metadata must hold valid Unicode text'],
    ['metadata with a lone surrogate deep inside', { metadata: { a: [{ b: '\udc00' }] } }, 'metadata.a.0.b must be valid Unicode text'],
    ['unknown field', { color: 'red' }, 'property color should not exist'],
    ['amount given', { amount: 1 }, 'property amount should not exist'],
    ['status given', { status: 'archived' }, 'property status should not exist'],
    ['id given', { id: UNKNOWN_ID }, 'property id should not exist'],
  ];

  beforeAll(async () => {
    await resetDatabase();
  });

  it.each(cases)('%s', async (_what, change, expected) => {
    const body = typeof change === 'function' ? change(validPlan()) : validPlan(change);
    const res = await t.api().post('/api/v1/plans').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const list = messages(res.body);
    expect(list.some((m) => m.startsWith(expected))).toBe(true);
    expect(await plans()).toHaveLength(0);
  });

  it('reports every bad field at once', async () => {
    const res = await t.api().post('/api/v1/plans').send({ name: '', currency: 'x', interval: 'hour', lines: [] });
    expect(res.status).toBe(400);
    const list = messages(res.body);
    for (const field of ['name', 'product', 'currency', 'interval', 'lines']) {
      expect(list.some((m) => m.startsWith(`${field} `))).toBe(true);
    }
    expect(await plans()).toHaveLength(0);
  });
});
