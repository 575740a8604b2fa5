/**
 * One page of an event stream whose ids run 1, 2, 3... (id n at index n-1): up to `limit` events strictly
 * after `afterId`. Undefined when `afterId` names no event, which the provider answers with 404.
 */
export function pageAfter<T>(events: readonly T[], afterId: number | undefined, limit: number): T[] | undefined {
  if (afterId === undefined) return events.slice(0, limit);
  if (afterId < 1 || afterId > events.length) return undefined;
  return events.slice(afterId, afterId + limit);
}
