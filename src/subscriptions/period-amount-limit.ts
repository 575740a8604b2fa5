import { UnprocessableEntityException } from '@nestjs/common';
import { withErrorCode } from '../common/errors/coded-error';
import { MAX_AMOUNT, maxQuantityFor, periodAmountWithinLimit } from '../common/money/amount-limits';

/**
 * A period's amount (plan amount × quantity) for a subscription being made or changed, or 422 `business_rule` naming
 * `field` (the request field to blame) when it passes MAX_AMOUNT: such a period could never be charged exactly.
 */
export function periodAmountOrRefuse(planAmount: number, quantity: number, field: 'quantity' | 'planId'): number {
  const amount = periodAmountWithinLimit(planAmount, quantity);
  if (amount !== null) return amount;
  const message =
    `The period amount (the plan's amount × quantity) must be at most ${MAX_AMOUNT} minor units: ${planAmount} × ${quantity} passes it; ` +
    `quantity may be at most ${maxQuantityFor(planAmount)} on this plan`;
  throw withErrorCode(new UnprocessableEntityException(message), 'business_rule', { field });
}

/** 422 `business_rule` naming `field` for a change whose credit would take the customer's balance past MAX_AMOUNT. */
export function creditBalanceOverLimit(balanceAfter: number, currency: string, field: 'quantity' | 'planId'): UnprocessableEntityException {
  const message =
    `This change would take the customer's credit balance in ${currency} to ${balanceAfter}, past the limit of ${MAX_AMOUNT} minor units; ` +
    'spend the balance first, or change without proration (prorate: false)';
  return withErrorCode(new UnprocessableEntityException(message), 'business_rule', { field });
}
