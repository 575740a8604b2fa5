import { SchemaViolation } from './schema-violation';

export interface StringRules {
  min?: number;
  max?: number;
  pattern?: RegExp;
  oneOf?: readonly string[];
}

export interface IntegerRules {
  min?: number;
  max?: number;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a JSON request body field by field against the provider's schema. Any violation becomes a
 * SchemaViolation of the whole body parameter (the way the provider's swagger validator reports it),
 * whose description names the offending field.
 */
export class BodyReader {
  private constructor(
    private readonly value: Record<string, unknown>,
    private readonly path: string,
    private readonly paramName: string,
  ) {}

  static root(body: unknown, paramName: string): BodyReader {
    if (!isPlainObject(body)) throw new SchemaViolation('schema_violated', paramName, 'body: must be a JSON object');
    return new BodyReader(body, '', paramName);
  }

  /** The object as received (for whole-body idempotency features). */
  raw(): Record<string, unknown> {
    return this.value;
  }

  requireString(key: string, rules: StringRules = {}): string {
    const value = this.optionalString(key, rules);
    if (value === undefined) throw this.violation(key, 'is required');
    return value;
  }

  optionalString(key: string, rules: StringRules = {}): string | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw this.violation(key, 'must be a string');
    if (rules.min !== undefined && value.length < rules.min) throw this.violation(key, `must be at least ${rules.min} characters long`);
    if (rules.max !== undefined && value.length > rules.max) throw this.violation(key, `must be at most ${rules.max} characters long`);
    if (rules.pattern && !rules.pattern.test(value)) throw this.violation(key, `must match ${rules.pattern.source}`);
    if (rules.oneOf && !rules.oneOf.includes(value)) throw this.violation(key, `must be one of ${rules.oneOf.join(', ')}`);
    return value;
  }

  requireInteger(key: string, rules: IntegerRules = {}): number {
    const value = this.optionalInteger(key, rules);
    if (value === undefined) throw this.violation(key, 'is required');
    return value;
  }

  optionalInteger(key: string, rules: IntegerRules = {}): number | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw this.violation(key, 'must be an integer');
    if (rules.min !== undefined && value < rules.min) throw this.violation(key, `must be at least ${rules.min}`);
    if (rules.max !== undefined && value > rules.max) throw this.violation(key, `must be at most ${rules.max}`);
    return value;
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw this.violation(key, 'must be a boolean');
    return value;
  }

  requireObject(key: string): BodyReader {
    const reader = this.optionalObject(key);
    if (!reader) throw this.violation(key, 'is required');
    return reader;
  }

  optionalObject(key: string): BodyReader | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) throw this.violation(key, 'must be an object');
    return new BodyReader(value, this.fieldPath(key), this.paramName);
  }

  /** A free-form JSON object (metadata). */
  requireRecord(key: string): Record<string, unknown> {
    const value = this.optionalRecord(key);
    if (value === undefined) throw this.violation(key, 'is required');
    return value;
  }

  optionalRecord(key: string): Record<string, unknown> | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) throw this.violation(key, 'must be an object');
    return value;
  }

  /** An array of objects; its size is the caller's business rule, so it is not checked here. */
  optionalObjectArray(key: string): BodyReader[] | undefined {
    const value = this.value[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw this.violation(key, 'must be an array');
    return value.map((item: unknown, index) => {
      const itemPath = `${this.fieldPath(key)}[${index}]`;
      if (!isPlainObject(item)) throw new SchemaViolation('schema_violated', this.paramName, `${itemPath}: must be an object`);
      return new BodyReader(item, itemPath, this.paramName);
    });
  }

  /** A violation of a rule the schema cannot express (such as a date-time format) on one field. */
  violation(key: string, detail: string): SchemaViolation {
    return new SchemaViolation('schema_violated', this.paramName, `${this.fieldPath(key)}: ${detail}`);
  }

  private fieldPath(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }
}
