import { parse } from 'csv-parse/sync';
import { PAYOUT_REFERENCE_PATTERN } from '../payout-reference';

/** One payout as the admin API takes it. */
export interface PayoutCsvItem {
  destinationId: string;
  amount: number;
  currency: string;
  reference?: string;
  metadata?: Record<string, unknown>;
}

export interface PayoutCsvResult {
  items: PayoutCsvItem[];
  /** `line N: ...` for every bad row or header problem; empty when the file is good. */
  errors: string[];
}

const REQUIRED_COLUMNS = ['destinationId', 'amount', 'currency'] as const;
const KNOWN_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_COLUMNS, 'reference', 'metadata']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses and checks a payouts CSV (header `destinationId,amount,currency[,reference][,metadata]`, amount in minor units,
 * metadata a JSON object) with the admin API's own rules, so a bad file is refused before anything is sent.
 */
export function parsePayoutCsv(input: string | Buffer): PayoutCsvResult {
  let records: Record<string, string>[];
  try {
    records = parse(input, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  } catch (error) {
    return { items: [], errors: [`the file is not valid CSV: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (records.length === 0) return { items: [], errors: ['the file holds no payouts (a header line and at least one row are needed)'] };

  const columns = Object.keys(records[0]);
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  const unknown = columns.filter((c) => !KNOWN_COLUMNS.has(c));
  if (missing.length > 0 || unknown.length > 0) {
    const problems = [...missing.map((c) => `missing column ${c}`), ...unknown.map((c) => `unknown column ${c}`)];
    return { items: [], errors: [`line 1: ${problems.join(', ')}; the header must be destinationId,amount,currency[,reference][,metadata]`] };
  }

  const items: PayoutCsvItem[] = [];
  const errors: string[] = [];
  const seenReferences = new Map<string, number>();
  records.forEach((record, index) => {
    // Line numbers as an editor shows them: the header is line 1 (rows spanning lines are rare in such files).
    const line = index + 2;
    const rowErrors: string[] = [];
    if (!UUID.test(record.destinationId)) rowErrors.push('destinationId must be a UUID');
    if (!/^\d+$/.test(record.amount) || Number(record.amount) < 1 || !Number.isSafeInteger(Number(record.amount))) {
      rowErrors.push('amount must be a whole number of minor units, at least 1');
    }
    if (!/^[A-Z]{3}$/.test(record.currency)) rowErrors.push('currency must be an ISO 4217 code such as RUB');
    const reference = record.reference === undefined || record.reference === '' ? undefined : record.reference;
    if (reference !== undefined && !PAYOUT_REFERENCE_PATTERN.test(reference)) rowErrors.push('reference must be 1..64 letters, digits and ._:-');
    const earlier = reference !== undefined ? seenReferences.get(reference) : undefined;
    if (earlier !== undefined) rowErrors.push(`reference ${reference} repeats line ${earlier}`);
    else if (reference !== undefined) seenReferences.set(reference, line);
    let metadata: Record<string, unknown> | undefined;
    if (record.metadata !== undefined && record.metadata !== '') {
      try {
        const value: unknown = JSON.parse(record.metadata);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
        metadata = value as Record<string, unknown>;
      } catch {
        rowErrors.push('metadata must be a JSON object');
      }
    }
    if (rowErrors.length > 0) {
      errors.push(`line ${line}: ${rowErrors.join('; ')}`);
      return;
    }
    items.push({
      destinationId: record.destinationId.toLowerCase(),
      amount: Number(record.amount),
      currency: record.currency,
      ...(reference !== undefined ? { reference } : {}),
      ...(metadata ? { metadata } : {}),
    });
  });
  return { items, errors };
}
