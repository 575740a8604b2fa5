import { Badge, Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../format/money';
import { formatTime } from '../format/time';
import { useValueLabel } from '../i18n/value-label';

/** An amount in the console's language (it re-renders when the language changes). */
export function Money({ amount, currency }: { amount: number; currency: string }) {
  useTranslation();
  return <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(amount, currency)}</span>;
}

/** A time in the subscription's zone and in UTC, or UTC alone; a dash when there is none. */
export function Time({ value, zone }: { value?: string | null; zone?: string | null }) {
  useTranslation();
  if (!value) return <span>—</span>;
  return <time dateTime={value}>{formatTime(value, zone)}</time>;
}

const STATUS_COLORS: Record<string, string> = {
  active: 'green',
  ready: 'green',
  succeeded: 'green',
  Authorized: 'green',
  trialing: 'blue',
  processing: 'blue',
  pending: 'gray',
  incomplete: 'gray',
  unready: 'gray',
  paused: 'yellow',
  retrying: 'orange',
  past_due: 'orange',
  unpaid: 'red',
  failed: 'red',
  declined: 'red',
  canceled: 'dark',
  archived: 'dark',
  skipped: 'dark',
};

/** A status as a badge, in the console's words (in English the API's own value, so it can be searched and filtered by). */
export function Status({ value }: { value: string }) {
  const label = useValueLabel();
  // The colour is in the dot; the text stays the page's own, readable (WCAG AA) on white and on striped rows.
  return (
    <Badge color={STATUS_COLORS[value] ?? 'gray'} variant="dot" radius="sm" style={{ textTransform: 'none', minWidth: 'max-content' }}>
      {label('status', value)}
    </Badge>
  );
}

export { IdLink } from './ids';

export function Json({ value }: { value: unknown }) {
  return (
    // Focusable: a keyboard can scroll a long body too.
    <Code block tabIndex={0} style={{ maxHeight: 480, overflow: 'auto' }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}

/** A label and its value, in the definition lists of object pages. */
export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" fw={700} tt="uppercase" c="gray.8">
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}
