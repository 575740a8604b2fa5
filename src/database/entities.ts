import { Charge } from '../billing/charge.entity';
import { ChargeAttempt } from '../billing/charge-attempt.entity';
import { TestClockState } from '../common/clock/test-clock.entity';
import { IdempotencyRecord } from '../common/http/idempotency-record.entity';
import { Customer } from '../customers/customer.entity';
import { CustomerBinding } from '../customers/customer-binding.entity';
import { Plan } from '../plans/plan.entity';
import { Subscription } from '../subscriptions/subscription.entity';
import { SubscriptionEvent } from '../subscriptions/subscription-event.entity';
import { Payout } from '../payouts/payout.entity';
import { PayoutBatch } from '../payouts/payout-batch.entity';
import { PayoutDestination } from '../payouts/payout-destination.entity';
import { PayoutSetup } from '../payouts/payout-setup.entity';
import { Worker } from '../work/worker.entity';

/** Every entity of the daemon; each domain adds its own here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: Function[] = [
  Plan,
  Customer,
  CustomerBinding,
  Subscription,
  SubscriptionEvent,
  Charge,
  ChargeAttempt,
  TestClockState,
  IdempotencyRecord,
  PayoutSetup,
  PayoutDestination,
  PayoutBatch,
  Payout,
  Worker,
];
