/**
 * The parameters of one statement being built from several modules' fragments: each value bound answers its
 * placeholder ($1, $2, ... in the order bound), so no fragment counts parameters by hand or knows how many came
 * before it. The text stays the same from one run to the next as long as the fragments bind in the same order,
 * which a named prepared statement (hotQuery) needs.
 */
export class SqlParams {
  private readonly list: unknown[] = [];

  /** Adds `value` and answers its placeholder; bind once and quote the answer as often as needed. */
  bind(value: unknown): string {
    this.list.push(value);
    return `$${this.list.length}`;
  }

  /** The values in placeholder order, for the driver. */
  get values(): unknown[] {
    return this.list;
  }
}

/**
 * A piece of another module's statement: a CTE list entry (or several, comma-separated, `name AS (...)`) whose
 * values it binds itself. The module that runs the statement calls each fragment once, in a fixed order.
 */
export type SqlFragment = (params: SqlParams) => string;

/** The fragments' CTEs, each on its own line after a comma, to follow the caller's own CTE list. */
export function followUpCtes(params: SqlParams, fragments: SqlFragment[]): string {
  return fragments.map((fragment) => `,\n       ${fragment(params)}`).join('');
}

/** Column names a fragment quotes into its text, checked to be plain lower-case identifiers (never input). */
export function checkColumnNames(...names: string[]): void {
  for (const name of names) if (!/^[a-z_]+$/.test(name)) throw new Error(`Not a column name: ${name}`);
}
