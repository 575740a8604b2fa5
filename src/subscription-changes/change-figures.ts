import type { Plan } from '../plans/plan.entity';
import type { ChangeQuote } from '../subscriptions/change-quote';

export interface ChangeFigures {
  effectiveAt: string;
  credit: number;
  cost: number;
  net: number;
  balanceAfter: number;
  nextChargeAt: string;
  nextChargeAmount: number;
  lines: { description: string; amount: number }[];
}

const named = (plan: Plan, quantity: number) => (quantity === 1 ? plan.product : `${plan.product} × ${quantity}`);

/** The answer's figures of a quote, with lines for people (and the proration charge's one cart line). */
export function figuresOf(quote: ChangeQuote, from: Plan, to: Plan, fromQuantity: number, toQuantity: number): ChangeFigures {
  const days = `${quote.remainingDays} of ${quote.totalDays} days`;
  const lines: { description: string; amount: number }[] = [];
  if (quote.reanchor) {
    lines.push({ description: `${named(to, toQuantity)}, new period`, amount: quote.cost });
    if (quote.credit > 0) lines.push({ description: `less ${named(from, fromQuantity)}, ${days} unused`, amount: -quote.credit });
  } else if (quote.credit > 0 || quote.cost > 0) {
    lines.push({ description: `${named(from, fromQuantity)} → ${named(to, toQuantity)}, ${days}`, amount: quote.net });
  }
  return {
    effectiveAt: quote.effectiveAt.toISOString(),
    credit: quote.credit,
    cost: quote.cost,
    net: quote.net,
    balanceAfter: quote.balanceAfter,
    nextChargeAt: quote.nextChargeAt.toISOString(),
    nextChargeAmount: quote.nextChargeAmount,
    lines,
  };
}

/** The figures a change's audit event holds (apply() records them beside its own fields): the change's answer again. */
export function recordedFigures(data: Record<string, unknown>): ChangeFigures {
  const { effectiveAt, credit, cost, net, balanceAfter, nextChargeAt, nextChargeAmount, lines } = data as unknown as ChangeFigures;
  return { effectiveAt, credit, cost, net, balanceAfter, nextChargeAt, nextChargeAmount, lines };
}
