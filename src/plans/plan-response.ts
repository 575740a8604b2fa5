import type { Plan, PlanDunning, PlanInterval, PlanStatus, TaxRate } from './plan.entity';

interface PlanLineResponse {
  product: string;
  price: number;
  quantity: number;
  taxRate?: TaxRate;
}

export interface PlanResponse {
  id: string;
  name: string;
  product: string;
  description: string | null;
  currency: string;
  interval: PlanInterval;
  intervalCount: number;
  trialDays: number;
  lines: PlanLineResponse[];
  /** Σ price × quantity, in minor units. */
  amount: number;
  shopId: string;
  /** null: the environment's ladder (DUNNING_RETRY_DELAYS, DUNNING_FINAL_ACTION) applies. */
  dunning: PlanDunning | null;
  metadata: Record<string, unknown>;
  status: PlanStatus;
  createdAt: string;
  updatedAt: string;
}

/** The admin API's view of a plan: a plain object with ISO timestamps, never the entity itself. */
export function toPlanResponse(plan: Plan): PlanResponse {
  return {
    id: plan.id,
    name: plan.name,
    product: plan.product,
    description: plan.description,
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    trialDays: plan.trialDays,
    lines: plan.lines.map((line) => ({
      product: line.product,
      price: line.price,
      quantity: line.quantity,
      ...(line.taxRate !== undefined ? { taxRate: line.taxRate } : {}),
    })),
    amount: plan.amount,
    shopId: plan.shopId,
    dunning: plan.dunning ? { ...plan.dunning, ...(plan.dunning.retryDelays && { retryDelays: [...plan.dunning.retryDelays] }) } : null,
    metadata: plan.metadata,
    status: plan.status,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}
