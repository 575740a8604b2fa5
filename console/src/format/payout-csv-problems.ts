/**
 * The payouts CSV parser (src/payouts/cli/payout-csv.ts, shared with `npm run payouts:import`) writes its problems in
 * English, as `line N: problem; problem`. The console names each in its catalog (`payoutUpload.problem.<key>`):
 * test/console/payout-csv-problems.spec.ts fails when the parser says something this table does not know.
 */
export type CsvProblemKey =
  | 'destinationId'
  | 'amount'
  | 'currency'
  | 'reference'
  | 'referenceRepeats'
  | 'metadata'
  | 'missingColumn'
  | 'unknownColumn'
  | 'header'
  | 'empty'
  | 'notCsv';

export interface CsvProblem {
  key: CsvProblemKey;
  values: Record<string, string>;
}

const PHRASES: [RegExp, CsvProblemKey, string[]][] = [
  [/^destinationId must be a UUID$/, 'destinationId', []],
  [/^amount must be a whole number of minor units, at least 1$/, 'amount', []],
  [/^currency must be an ISO 4217 code such as RUB$/, 'currency', []],
  [/^reference must be 1\.\.64 letters, digits and \._:-$/, 'reference', []],
  [/^reference (.+) repeats line (\d+)$/, 'referenceRepeats', ['reference', 'line']],
  [/^metadata must be a JSON object$/, 'metadata', []],
  [/^missing column (.+)$/, 'missingColumn', ['column']],
  [/^unknown column (.+)$/, 'unknownColumn', ['column']],
  [/^the header must be destinationId,amount,currency\[,reference\]\[,metadata\]$/, 'header', []],
  [/^the file holds no payouts \(a header line and at least one row are needed\)$/, 'empty', []],
  [/^the file is not valid CSV: (.*)$/, 'notCsv', ['detail']],
];

function problem(text: string): CsvProblem | null {
  for (const [pattern, key, names] of PHRASES) {
    const match = pattern.exec(text);
    if (match) return { key, values: Object.fromEntries(names.map((name, i) => [name, match[i + 1]])) };
  }
  return null;
}

/** One error of the parser as its line (if any) and its problems; null when a part is not one the console knows. */
export function csvProblems(error: string): { line: number | null; problems: CsvProblem[] } | null {
  const lineMatch = /^line (\d+): (.*)$/s.exec(error);
  const rest = lineMatch ? lineMatch[2] : error;
  // A CSV library's own message may hold any punctuation: it is one problem, never split.
  const parts = rest.startsWith('the file is not valid CSV:') ? [rest] : rest.split(/; |, (?=(?:missing|unknown) column )/);
  const problems = parts.map(problem);
  if (problems.some((p) => p === null)) return null;
  return { line: lineMatch ? Number(lineMatch[1]) : null, problems: problems as CsvProblem[] };
}
