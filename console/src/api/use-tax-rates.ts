import { useQueryClient } from '@tanstack/react-query';
import { SESSION_QUERY } from './session';

/**
 * The VAT rates a new line may carry (BILLING_TAX_RATES, in the daemon's order), read from the session the app loaded
 * before any page: the daemon refuses any other, and which rates are in force changes with the law, not the console.
 */
export function useTaxRates(): string[] {
  const session = useQueryClient().getQueryData<{ taxRates?: string[] | null }>(SESSION_QUERY);
  return session?.taxRates ?? [];
}
