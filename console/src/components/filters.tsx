import { Select } from '@mantine/core';
import { useSearchParams } from 'react-router';

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

/** A select over a status filter ("any" clears it). */
export function StatusFilter({ label, values, value, onChange }: { label: string; values: readonly string[]; value?: string; onChange: (v: string | undefined) => void }) {
  return (
    <Select
      label={label}
      w={200}
      data={[{ value: '', label: 'any' }, ...values.map((v) => ({ value: v, label: v }))]}
      value={value ?? ''}
      onChange={(v) => onChange(v || undefined)}
      allowDeselect={false}
    />
  );
}
