import { isISO8601, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/** A date-time with its zone (`Z` or an offset): without one, the instant would depend on the server's time zone. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Instants the database and the calendar both hold: years 0001..9999 in UTC (PostgreSQL has no year 0). */
export const EARLIEST_INSTANT_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether `value` is an ISO 8601 date-time with a zone naming a real instant (no February 30) in years 0001..9999 UTC. */
export function isDateTimeWithZone(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_TIME_WITH_ZONE.test(value) || !isISO8601(value, { strict: true })) return false;
  const ms = Date.parse(value);
  return ms >= EARLIEST_INSTANT_MS && ms <= LATEST_INSTANT_MS;
}

/** An ISO 8601 date-time with a zone that names a real instant in years 0001..9999; one message naming the field. */
export function IsDateTimeWithZone(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTimeWithZone',
      validator: {
        validate: (value: unknown) => isDateTimeWithZone(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be an ISO 8601 date-time with a zone (Z or an offset) between the years 0001 and 9999, such as 2027-01-31T00:00:00.000Z`,
      },
    },
    options,
  );
}
