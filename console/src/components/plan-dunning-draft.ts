import type { CreatePlan, Plan } from '../api/types';

export type Strategy = 'smart' | 'fixed';
export type FinalAction = 'cancel' | 'unpaid';

/** A plan's dunning as its form holds it: the delays as typed, the days as a number or nothing yet. */
export interface DunningDraft {
  strategy: Strategy;
  maxDays: number | '';
  retryDelays: string;
  finalAction: FinalAction;
}

/** What is wrong with a field, as a catalog key and its values; null where the field is fine. */
export interface DraftProblems {
  maxDays: { key: 'dunningForm.maxDaysError' } | null;
  retryDelays: { key: 'dunningForm.delayError'; delay: string } | { key: 'dunningForm.tooManyDelays' } | null;
}

/** The daemon's defaults (src/plans/plans.service.ts DEFAULT_MAX_DAYS, the documented example ladder). */
export const NEW_PLAN_DUNNING: DunningDraft = { strategy: 'smart', maxDays: 21, retryDelays: '1d, 3d, 7d', finalAction: 'cancel' };

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** The daemon's rule for one delay (src/common/duration.ts, src/plans/plan-validation.ts): a whole number of s, m, h, d or w, 1m..365d. */
export function isRetryDelay(text: string): boolean {
  const match = /^(\d+)\s*([smhdw])$/.exec(text);
  if (!match) return false;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]];
  return seconds >= 60 && seconds <= 365 * 86_400;
}

export function delaysOf(draft: DunningDraft): string[] {
  return draft.retryDelays
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

/** Checked as the daemon checks them, so a mistake shows on its field before anything is sent. */
export function draftProblems(draft: DunningDraft): DraftProblems {
  const maxDays = draft.strategy === 'smart' && !(Number.isInteger(draft.maxDays) && Number(draft.maxDays) >= 1 && Number(draft.maxDays) <= 90) ? ({ key: 'dunningForm.maxDaysError' } as const) : null;
  let retryDelays: DraftProblems['retryDelays'] = null;
  if (draft.strategy === 'fixed') {
    const delays = delaysOf(draft);
    const wrong = delays.find((d) => !isRetryDelay(d));
    if (wrong !== undefined) retryDelays = { key: 'dunningForm.delayError', delay: wrong };
    else if (delays.length > 15) retryDelays = { key: 'dunningForm.tooManyDelays' };
  }
  return { maxDays, retryDelays };
}

/** The body's `dunning`: smart sends its days, fixed its ladder (the daemon refuses delays with smart). */
export function toPlanDunning(draft: DunningDraft): NonNullable<CreatePlan['dunning']> {
  return draft.strategy === 'smart'
    ? { strategy: 'smart', maxDays: Number(draft.maxDays), finalAction: draft.finalAction }
    : { strategy: 'fixed', retryDelays: delaysOf(draft), finalAction: draft.finalAction };
}

/** The form's starting point for a plan: its effective dunning as the API answers it. */
export function draftOf(dunning: Plan['dunning']): DunningDraft {
  return {
    strategy: dunning.strategy,
    maxDays: dunning.maxDays ?? NEW_PLAN_DUNNING.maxDays,
    retryDelays: (dunning.retryDelays ?? []).join(', ') || NEW_PLAN_DUNNING.retryDelays,
    finalAction: dunning.finalAction,
  };
}
