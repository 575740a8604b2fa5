import { parsePayoutCsv } from './payout-csv';

const ID = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';

describe('parsePayoutCsv', () => {
  it('reads rows with and without metadata', () => {
    const csv = `destinationId,amount,currency,metadata\n${ID},1500,RUB,"{""ref"":""A-1""}"\n${ID},20,RUB,\n`;
    expect(parsePayoutCsv(csv)).toEqual({
      items: [
        { destinationId: ID, amount: 1500, currency: 'RUB', metadata: { ref: 'A-1' } },
        { destinationId: ID, amount: 20, currency: 'RUB' },
      ],
      errors: [],
    });
  });

  it('accepts the three required columns alone, in any order, with a BOM', () => {
    expect(parsePayoutCsv(`\uFEFFcurrency,amount,destinationId\nRUB,1,${ID}\n`).items).toEqual([{ destinationId: ID, amount: 1, currency: 'RUB' }]);
  });

  it('names the line and the field of every bad row', () => {
    const csv = [
      'destinationId,amount,currency,metadata',
      `${ID},10.5,RUB,`,
      `not-an-id,0,rub,[1]`,
      `${ID},-3,RUB,`,
      `${ID},100,RUB,"{""ok"":true}"`,
    ].join('\n');
    const result = parsePayoutCsv(csv);
    expect(result.errors).toEqual([
      'line 2: amount must be a whole number of minor units, at least 1',
      'line 3: destinationId must be a UUID; amount must be a whole number of minor units, at least 1; currency must be an ISO 4217 code such as RUB; metadata must be a JSON object',
      'line 4: amount must be a whole number of minor units, at least 1',
    ]);
    expect(result.items).toHaveLength(1);
  });

  it('reads a reference column, and refuses a malformed or repeated reference', () => {
    const csv = [
      'destinationId,amount,currency,reference',
      `${ID},100,RUB,inv-2027.0042`,
      `${ID},200,RUB,`,
      `${ID},300,RUB,has space`,
      `${ID},400,RUB,inv-2027.0042`,
    ].join('\n');
    const result = parsePayoutCsv(csv);
    expect(result.items).toEqual([
      { destinationId: ID, amount: 100, currency: 'RUB', reference: 'inv-2027.0042' },
      { destinationId: ID, amount: 200, currency: 'RUB' },
    ]);
    expect(result.errors).toEqual(['line 4: reference must be 1..64 letters, digits and ._:-', 'line 5: reference inv-2027.0042 repeats line 2']);
  });

  it('refuses a wrong header and an empty file', () => {
    expect(parsePayoutCsv('destination,amount,currency,note\nx,1,RUB,y\n').errors).toEqual([
      'line 1: missing column destinationId, unknown column destination, unknown column note; the header must be destinationId,amount,currency[,reference][,metadata]',
    ]);
    expect(parsePayoutCsv('destinationId,amount,currency\n').errors).toEqual(['the file holds no payouts (a header line and at least one row are needed)']);
  });

  it('refuses a file that is not CSV', () => {
    expect(parsePayoutCsv('destinationId,amount,currency\n"unclosed,1,RUB\n').errors[0]).toMatch(/^the file is not valid CSV/);
  });
});
