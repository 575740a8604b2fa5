import { ValidateBy, ValidateIf, ValidationArguments, ValidationOptions } from 'class-validator';
import { DURATION_PATTERN, parseDuration } from '../common/duration';
import { BillingInterval, maxPeriodWithinThreeYears } from '../subscriptions/billing-calendar';
import type { TaxRate } from './plan.entity';

export const PLAN_INTERVALS: readonly BillingInterval[] = ['day', 'week', 'month', 'year'];
export const TAX_RATES: readonly TaxRate[] = ['0%', '10%', '18%', '20%', '10/110', '18/118', '20/120'];
export const FINAL_ACTIONS = ['cancel', 'unpaid'] as const;

/** Largest plan amount (and line price) in minor units: far below 2^53, so sums and products stay exact. */
export const MAX_AMOUNT = 1_000_000_000_000_000;

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_KEY_LENGTH = 100;
export const METADATA_MAX_DEPTH = 10;

const MIN_RETRY_DELAY_MS = 60_000;
const MAX_RETRY_DELAY_MS = 365 * 86_400_000;

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

/** A retry delay: a duration such as `12h` or `3d` (src/common/duration.ts), between 1 minute and 365 days. */
export function IsRetryDelay(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRetryDelay',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || !DURATION_PATTERN.test(value)) return false;
          const ms = parseDuration(value);
          return ms >= MIN_RETRY_DELAY_MS && ms <= MAX_RETRY_DELAY_MS;
        },
        defaultMessage: (args?: ValidationArguments) =>
          `each value in ${args?.property} must be a duration such as 12h or 3d (units s, m, h, d, w) between 1m and 365d`,
      },
    },
    options,
  );
}

/** `intervalCount` makes one period at most 3 years (36 months, 156 weeks, 1096 days). */
export function PeriodAtMostThreeYears(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'periodAtMostThreeYears',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const interval = (args?.object as { interval?: unknown } | undefined)?.interval;
          // A bad interval is reported on its own field; only a known one bounds the count.
          if (typeof interval !== 'string' || !PLAN_INTERVALS.includes(interval as BillingInterval)) return true;
          return typeof value === 'number' && maxPeriodWithinThreeYears(interval as BillingInterval, value);
        },
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must make one period at most 3 years (day ≤ 1096, week ≤ 156, month ≤ 36, year ≤ 3)`,
      },
    },
    options,
  );
}

/** Σ price × quantity over the lines is at most MAX_AMOUNT (computed exactly, in BigInt). */
export function LinesTotalAtMost(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'linesTotalAtMost',
      constraints: [max],
      validator: {
        validate: (value: unknown) => {
          if (!Array.isArray(value)) return true;
          let total = 0n;
          for (const line of value as unknown[]) {
            const { price, quantity = 1 } = (line ?? {}) as { price?: unknown; quantity?: unknown };
            // Malformed lines are reported by the line rules; the total only makes sense for whole numbers.
            if (!Number.isSafeInteger(price) || !Number.isSafeInteger(quantity)) return true;
            total += BigInt(price as number) * BigInt(quantity as number);
          }
          return total <= BigInt(max);
        },
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must add up (sum of price × quantity) to at most ${max} minor units`,
      },
    },
    options,
  );
}

/** Why a metadata value is refused, or null when it is fine. */
export function metadataProblem(value: unknown): string | null {
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
