import { useTranslation } from 'react-i18next';

/** The catalog's groups that name an API value (a status, a failure class…). */
export type ValueGroup = 'status' | 'failureClass' | 'finalAction' | 'intervalName' | 'event.object' | 'customer.source';

/**
 * An API value in the console's words: the catalog's entry for it, or the value itself for one the catalog does not
 * know yet (a status added to the API shows as it is rather than as a key).
 */
export function useValueLabel(): (group: ValueGroup, value: string) => string {
  const { t, i18n } = useTranslation();
  const lookup = t as unknown as (key: string) => string;
  return (group, value) => {
    const key = `${group}.${value}`;
    return i18n.exists(key) ? lookup(key) : value;
  };
}
