import { SchemaViolation } from './schema-violation';

export type QueryParams = Record<string, unknown>;

export interface QueryIntegerRules {
  required?: boolean;
  min?: number;
  max?: number;
}

/** An integer query parameter checked as the provider's swagger validator checks it. */
export function queryInteger(query: QueryParams, name: string, rules: QueryIntegerRules & { required: true }): number;
export function queryInteger(query: QueryParams, name: string, rules?: QueryIntegerRules): number | undefined;
export function queryInteger(query: QueryParams, name: string, rules: QueryIntegerRules = {}): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') {
    if (rules.required) throw new SchemaViolation('schema_violated', name);
    return undefined;
  }
  if (typeof raw !== 'string' || !/^-?\d{1,10}$/.test(raw)) throw new SchemaViolation('wrong_type', name);
  const value = Number(raw);
  if ((rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max)) {
    throw new SchemaViolation('not_in_range', name);
  }
  return value;
}

/** A text query parameter within the given length. */
export function queryString(query: QueryParams, name: string, rules: { required: true; min?: number; max?: number }): string;
export function queryString(query: QueryParams, name: string, rules?: { required?: boolean; min?: number; max?: number }): string | undefined;
export function queryString(query: QueryParams, name: string, rules: { required?: boolean; min?: number; max?: number } = {}): string | undefined {
  const raw = query[name];
  if (raw === undefined) {
    if (rules.required) throw new SchemaViolation('schema_violated', name);
    return undefined;
  }
  if (typeof raw !== 'string') throw new SchemaViolation('wrong_type', name);
  if ((rules.min !== undefined && raw.length < rules.min) || (rules.max !== undefined && raw.length > rules.max)) {
    throw new SchemaViolation('wrong_length', name);
  }
  return raw;
}
