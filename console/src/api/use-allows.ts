import { useQueryClient } from '@tanstack/react-query';
import { allows } from './scopes';
import { SESSION_QUERY } from './session';

/**
 * Whether the signed-in credential holds `needed` (read from the session the app loaded before any page). A page shows
 * an action only when it does; the API refuses it anyway.
 */
export function useAllows(needed: string): boolean {
  const session = useQueryClient().getQueryData<{ scopes?: string[] | null }>(SESSION_QUERY);
  return allows(session?.scopes ?? [], needed);
}
