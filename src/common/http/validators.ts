import { ValidateBy, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';

/** Rules for free text and free-form metadata shared by every admin DTO. */

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_KEY_LENGTH = 100;
export const METADATA_MAX_DEPTH = 10;

/**
 * Optional, but null is not a value: `IsOptional` would let `null` through and the column default
 * would silently win. Absent → skipped; null → checked like any other value (and refused).
 */
export function OptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}

// A UTF-16 surrogate without its partner: not a character, and not encodable as UTF-8.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL can store as given: U+0000 is refused by text and jsonb columns, and a lone surrogate
 * is either replaced silently (text) or refused (jsonb). Checking here keeps both a 400, not a 500.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

export function StorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'storableText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be valid Unicode text without the NUL character (\\u0000)`,
      },
    },
    options,
  );
}

/** Why a metadata value is refused, or null when it is fine. */
function metadataProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be a JSON object (not an array or null)';
  const keys = Object.keys(value);
  if (keys.length > METADATA_MAX_KEYS) return `must have at most ${METADATA_MAX_KEYS} keys`;
  if (keys.some((k) => k.length === 0 || k.length > METADATA_MAX_KEY_LENGTH)) {
    return `keys must be 1..${METADATA_MAX_KEY_LENGTH} characters`;
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > METADATA_MAX_BYTES) {
    return `must be at most ${METADATA_MAX_BYTES} bytes as JSON`;
  }
  return jsonProblem(value, 1);
}

/** Free-form metadata: a plain JSON object, at most 50 keys and 16 KB as JSON, no NUL, nesting ≤ 10. */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${metadataProblem(args?.value) ?? 'is not valid'}`,
      },
    },
    options,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const TEXT_PROBLEM = 'must hold valid Unicode text without the NUL character (\\u0000)';

function jsonProblem(value: unknown, depth: number): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : TEXT_PROBLEM;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return null;
  if (typeof value !== 'object') return 'must hold only JSON values';
  if (depth > METADATA_MAX_DEPTH) return `must be nested at most ${METADATA_MAX_DEPTH} levels deep`;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, child] of entries) {
    if (!isStorableText(key)) return TEXT_PROBLEM;
    const problem = jsonProblem(child, depth + 1);
    if (problem) return problem;
  }
  return null;
}
