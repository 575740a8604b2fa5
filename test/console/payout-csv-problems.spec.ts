import { csvProblems } from '../../console/src/format/payout-csv-problems';
import { parsePayoutCsv } from '../../src/payouts/cli/payout-csv';

/** Every problem the payouts CSV parser can report is one the console names in its catalogs (in Russian too). */
describe('the console names every problem of a payouts CSV', () => {
  const id = '0199a000-0000-7000-8000-000000000001';
  const files = [
    '',
    'destinationId,amount\n',
    'destinationId,amount,currency,colour\nx,1,RUB,red',
    'amount,currency\n1,RUB',
    '"unclosed\n',
    [
      'destinationId,amount,currency,reference,metadata',
      `${id},150000,RUB,r-1,`,
      'not-an-id,12.50,rub,bad reference!,[1]',
      `${id},0,RUB,r-1,"{""a"":1}"`,
    ].join('\n'),
  ];

  it.each(files)('%j', (file) => {
    const { errors } = parsePayoutCsv(file);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect({ error, known: csvProblems(error) !== null }).toEqual({ error, known: true });
  });

  it('keeps the line and what is wrong on it', () => {
    expect(csvProblems('line 3: destinationId must be a UUID; reference r-1 repeats line 2')).toEqual({
      line: 3,
      problems: [
        { key: 'destinationId', values: {} },
        { key: 'referenceRepeats', values: { reference: 'r-1', line: '2' } },
      ],
    });
    expect(csvProblems('line 3: something new')).toBeNull();
  });
});
