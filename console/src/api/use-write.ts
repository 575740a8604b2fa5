import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { newIdempotencyKey } from './client';

/**
 * A write to the admin API with its Idempotency-Key. The key is made when the write is first asked for and kept until
 * it succeeds, so a double click or a retry after a lost answer replays the first answer instead of acting twice; a
 * second click while the first is in flight sends nothing. Refs, not state: a click in the same frame sees them.
 * Every cached read is refreshed afterwards, so the page shows the effect.
 */
export function useWrite<V, T>(write: (vars: V, idempotencyKey: string) => Promise<T>, onDone?: (result: T) => void | Promise<void>) {
  const queryClient = useQueryClient();
  const key = useRef<string | null>(null);
  const inFlight = useRef(false);
  const mutation = useMutation({
    mutationFn: (vars: V) => {
      key.current ??= newIdempotencyKey();
      return write(vars, key.current);
    },
    onSuccess: async (result) => {
      key.current = null;
      await onDone?.(result);
      await queryClient.invalidateQueries();
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });
  const send = (vars: V) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(vars);
  };
  return { send, mutation, busy: () => inFlight.current };
}
