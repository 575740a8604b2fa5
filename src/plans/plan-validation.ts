import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { DURATION_PATTERN, parseDuration } from '../common/duration';
import { BillingInterval, maxPeriodWithinThreeYears } from '../common/calendar/billing-calendar';
import { isTaxRateSyntax } from '../common/tax-rates';

export const PLAN_INTERVALS: readonly BillingInterval[] = ['day', 'week', 'month', 'year'];
export const FINAL_ACTIONS = ['cancel', 'unpaid'] as const;
export const DUNNING_STRATEGIES = ['smart', 'fixed'] as const;

/** `retryDelays` belong to the fixed strategy: a plan that asks for `smart` gives none. */
export function NotWithSmartStrategy(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notWithSmartStrategy',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => value === undefined || (args?.object as { strategy?: unknown } | undefined)?.strategy !== 'smart',
        defaultMessage: (args?: ValidationArguments) => `${args?.property} belongs to the fixed strategy: leave it out with strategy smart`,
      },
    },
    options,
  );
}

/** A VAT rate written as one (`22%`, `22/122`); whether it is in force is the plans service's check (BILLING_TAX_RATES). */
export function IsTaxRate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTaxRate',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isTaxRateSyntax(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a VAT rate such as 22% or 22/122`,
      },
    },
    options,
  );
}

/** Largest plan amount (and line price) in minor units: the one money bound (src/common/money/amount-limits.ts). */
export { MAX_AMOUNT } from '../common/money/amount-limits';

const MIN_RETRY_DELAY_MS = 60_000;
const MAX_RETRY_DELAY_MS = 365 * 86_400_000;

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

/** The setup fee and the plan's own amount (Σ price × quantity of `lines`) together stay within `max`: the first invoice carries both. */
export function SetupFeeWithinLimit(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'setupFeeWithinLimit',
      constraints: [max],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const lines = (args?.object as { lines?: unknown } | undefined)?.lines;
          if (!Number.isSafeInteger(value) || !Array.isArray(lines)) return true;
          let total = BigInt(value as number);
          for (const line of lines as unknown[]) {
            const { price, quantity = 1 } = (line ?? {}) as { price?: unknown; quantity?: unknown };
            // Malformed lines are reported by the line rules.
            if (!Number.isSafeInteger(price) || !Number.isSafeInteger(quantity)) return true;
            total += BigInt(price as number) * BigInt(quantity as number);
          }
          return total <= BigInt(max);
        },
        defaultMessage: (args?: ValidationArguments) => `${args?.property} and the plan's amount (the sum of its lines) must add up to at most ${max} minor units`,
      },
    },
    options,
  );
}

/** `setupFeeTaxRate` is the setup fee's line rate: without a setup fee it has nothing to apply to. */
export function OnlyWithSetupFee(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'onlyWithSetupFee',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => value === undefined || (args?.object as { setupFee?: unknown } | undefined)?.setupFee !== undefined,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} is the setup fee's VAT rate: give it with setupFee, or leave it out`,
      },
    },
    options,
  );
}
