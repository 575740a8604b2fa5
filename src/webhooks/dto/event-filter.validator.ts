import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { EVENT_TYPES } from '../../events/event-types';

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Why an endpoint's `events` list is refused, or null: `["*"]`, or 1..10 distinct known types. */
function eventFilterProblem(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty list of event types, or ["*"] for every type';
  if (value.length > EVENT_TYPES.length) return `must list at most ${EVENT_TYPES.length} types`;
  if (value.some((v) => typeof v !== 'string')) return 'must hold only strings';
  if (value.includes('*')) return value.length === 1 ? null : 'must be ["*"] alone when it includes "*"';
  const unknown = value.filter((v: string) => !KNOWN.has(v));
  if (unknown.length > 0) return `holds unknown types (${unknown.slice(0, 3).map((v: string) => JSON.stringify(v.slice(0, 40))).join(', ')}); known: ${EVENT_TYPES.join(', ')}`;
  if (new Set(value).size !== value.length) return 'must not repeat a type';
  return null;
}

export function IsEventFilter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEventFilter',
      validator: {
        validate: (value: unknown) => eventFilterProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${eventFilterProblem(args?.value) ?? 'is not valid'}`,
      },
    },
    options,
  );
}
