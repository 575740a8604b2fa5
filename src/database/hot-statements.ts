/**
 * The catalogue of the charge hot path: every statement a due charge runs through hotQuery, from its claim to its
 * settling write, by name. test/database/hot-statements.spec.ts works a charge and writes each one out as
 * sql/hot/<name>.sql; the files are committed and the test fails when one drifts, so a reviewer sees every
 * statement the hot path runs, and a change to one shows in review. (The batch's context reads are TypeORM finds
 * by primary key, not listed here.) Refresh the files with `UPDATE_HOT_SQL=1 npx jest test/database/hot-statements`.
 */
export const HOT_STATEMENTS = {
  'charges.claim': 'Claims due charges for this process, oldest due first, dead owners first (the work engine, LeasedQueue).',
  'charges.record-invoice': "The invoices' answers and first payments' intents of concurrent workers (a group commit), each under its own fence, before the payments are created.",
  'charges.open-attempt': "A further payment attempt's intent (dunning), under the fence, before the payment is created.",
  'charges.record-payment': "The provider's payment id, once a read found the payment not final yet (or before it waits for its event).",
  'charges.settle-succeeded': 'Captured payments settled (a group commit of concurrent workers): each charge released under its own fence, its attempt, the audit event and charge.succeeded, in one statement.',
} as const;

export type HotStatementName = keyof typeof HOT_STATEMENTS;

const texts = new Map<string, string>();

/** Records the text a named hot statement runs (the first one of each name); answers the text. */
export function noteHotStatement(name: string, text: string): string {
  if (!texts.has(name)) texts.set(name, text);
  return text;
}

/** The text each named hot statement ran with in this process so far (or was declared with). */
export function hotStatementTexts(): ReadonlyMap<string, string> {
  return texts;
}
