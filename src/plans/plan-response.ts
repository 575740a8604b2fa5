import type { Plan, PlanInterval, PlanStatus, TaxRate } from './plan.entity';
import type { EffectiveDunning } from './plans.service';

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
  /** Charged once per subscription; null: none. */
  setupFee: number | null;
  setupFeeTaxRate: TaxRate | null;
  /** Every line's VAT rate is in force (BILLING_TAX_RATES); false: move the subscribers with a plan migration. */
  taxRatesCurrent: boolean;
  shopId: string;
  /** The dunning its subscriptions get: the plan's own, else the environment's. */
  dunning: PlanDunningView;
  metadata: Record<string, unknown>;
  status: PlanStatus;
  createdAt: string;
  updatedAt: string;
}

/** The effective dunning as the plan answer shows it: `retryDelays` when fixed, `maxDays` when smart. */
export interface PlanDunningView {
  strategy: 'fixed' | 'smart';
  retryDelays?: string[];
  maxDays?: number;
  finalAction: 'cancel' | 'unpaid';
}

/**
 * The admin API's view of a plan: a plain object with ISO timestamps, never the entity itself. `dunning` is the
 * effective one (PlansService.effectiveDunning), not the plan's own setting.
 */
export function toPlanResponse(plan: Plan, dunning: EffectiveDunning, taxRatesCurrent: boolean): PlanResponse {
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
    setupFee: plan.setupFee,
    setupFeeTaxRate: plan.setupFeeTaxRate,
    taxRatesCurrent,
    shopId: plan.shopId,
    dunning:
      dunning.strategy === 'fixed'
        ? { strategy: 'fixed', retryDelays: [...dunning.retryDelays], finalAction: dunning.finalAction }
        : { strategy: 'smart', maxDays: dunning.maxDays as number, finalAction: dunning.finalAction },
    metadata: plan.metadata,
    status: plan.status,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}
