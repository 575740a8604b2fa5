import { followUpCtes, SqlFragment, SqlParams } from './sql-statement';

describe('SqlParams', () => {
  it('numbers each bound value after those bound before it, whoever binds it', () => {
    const params = new SqlParams();
    const [id, fence] = [params.bind('charge-1'), params.bind(7)];
    const audit: SqlFragment = (p) => {
      const at = p.bind('2026-01-01');
      return `audit AS (SELECT ${p.bind('{}')}::jsonb, ${at}, ${at})`;
    };
    const event: SqlFragment = (p) => `event AS (SELECT ${p.bind('e-1')}::uuid)`;
    const sql = `WITH c AS (UPDATE t SET x = 1 WHERE id = ${id} AND fence = ${fence})${followUpCtes(params, [audit, event])}`;
    expect(sql).toBe('WITH c AS (UPDATE t SET x = 1 WHERE id = $1 AND fence = $2),\n       audit AS (SELECT $4::jsonb, $3, $3),\n       event AS (SELECT $5::uuid)');
    expect(params.values).toEqual(['charge-1', 7, '2026-01-01', '{}', 'e-1']);
  });
});
