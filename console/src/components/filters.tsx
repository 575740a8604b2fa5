import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useValueLabel, type ValueGroup } from '../i18n/value-label';

/** A list filter kept in the address, so a filtered list is a link too. */
export function useFilter(name: string): [string | undefined, (value: string | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? undefined;
  const set = (next: string | undefined) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next) copy.set(name, next);
        else copy.delete(name);
        return copy;
      },
      { replace: true },
    );
  return [value, set];
}

/** A select over a status filter ("any" clears it); `group` names the values in the console's words (event types stay as they are). */
export function StatusFilter({
  label,
  values,
  value,
  onChange,
  group = 'status',
}: {
  label: string;
  values: readonly string[];
  value?: string;
  onChange: (v: string | undefined) => void;
  group?: ValueGroup | null;
}) {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  return (
    <Select
      label={label}
      w={200}
      data={[{ value: '', label: t('common.any') }, ...values.map((v) => ({ value: v, label: group ? valueLabel(group, v) : v }))]}
      value={value ?? ''}
      onChange={(v) => onChange(v || undefined)}
      allowDeselect={false}
    />
  );
}
