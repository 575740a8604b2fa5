import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../common/api-docs/api-properties';
import type { AttemptStatus } from './charge-attempt.entity';
import type { ChargeStatus } from './charge.entity';
import { CHARGE_STATUSES } from './list-charges-query.dto';

const CLASSES = ['hard', 'soft', 'technical'];
const CLASS_MEANING =
  '`hard`: the same card will not pay (expired, lost, invalid): collection waits for a new card; `soft`: may pay later (insufficient funds, issuer refusal): retried on the ladder; `technical`: the provider did not answer or failed, never counted as a decline.';

/** Documentation of one payment attempt as the dunning read shows it. */
@ApiSchema({ name: 'DunningAttempt' })
export class DunningAttemptDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the first attempt.', example: 2 })
  number: number;

  @ApiNullableText("The payment's id at the provider, once known.", '2')
  paymentId: string | null;

  @ApiProperty({ enum: ['pending', 'unknown', 'processing', 'succeeded', 'declined'], description: 'The attempt as the charge shows it.', example: 'declined' })
  status: AttemptStatus;

  @ApiNullableText("The provider's failure code, most general first.", 'authorization_failed:insufficient_funds')
  errorCode: string | null;

  @ApiProperty({
    description: 'true for an attempt an operator asked for (POST /charges/{id}/retry) while the charge was being dunned: it is outside the ladder, never counts toward the attempts that end dunning and never moves the next scheduled one.',
    example: false,
  })
  manual: boolean;

  @ApiProperty({ enum: CLASSES, nullable: true, description: `${CLASS_MEANING} null: not failed.`, example: 'soft' })
  class: 'hard' | 'soft' | 'technical' | null;

  @ApiTimeProperty('When it was attempted, on the billing clock.', { nullable: true })
  createdAt: string | null;
}

/** The last failure of a charge and its class. */
@ApiSchema({ name: 'DunningLastError' })
export class DunningLastErrorDto {
  @ApiProperty({ description: "The provider's code (or `<kind>:<code>` for a technical failure).", example: 'authorization_failed:insufficient_funds' })
  code: string;

  @ApiProperty({ enum: CLASSES, nullable: true, description: CLASS_MEANING, example: 'soft' })
  class: 'hard' | 'soft' | 'technical' | null;
}

/** GET /api/v1/charges/:id/dunning. */
@ApiSchema({ name: 'ChargeDunning' })
export class ChargeDunningResponseDto {
  @ApiIdProperty('The charge.')
  chargeId: string;

  @ApiProperty({ enum: CHARGE_STATUSES, description: "The charge's status.", example: 'retrying' })
  status: ChargeStatus;

  @ApiProperty({ type: [String], description: "The ladder that applies (the plan's own, else DUNNING_RETRY_DELAYS): the delay before each retry.", example: ['1d', '3d', '7d'] })
  retryDelays: string[];

  @ApiProperty({ enum: ['cancel', 'unpaid', 'none'], description: 'What happens to the subscription when the ladder is exhausted; `none` for a one-off charge, which is not dunned.', example: 'cancel' })
  finalAction: 'cancel' | 'unpaid' | 'none';

  @ApiProperty({ type: 'integer', minimum: 1, description: 'N in "attempt n of N": the first attempt and one per step of the ladder.', example: 4 })
  maxAttempts: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: "The ladder's attempts that reached a definite outcome (declines and the success); manual retries are counted in `manualAttempts`.",
    example: 1,
  })
  attemptsMade: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Manual retries outside the ladder that reached a definite outcome.', example: 0 })
  manualAttempts: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'n of the next attempt of the ladder, when one is scheduled.', example: 2 })
  nextAttemptNumber: number | null;

  @ApiTimeProperty('When the next attempt is due (billing clock), when one is scheduled.', { nullable: true })
  nextAttemptAt: string | null;

  @ApiProperty({ description: 'true after a hard decline: the charge is attempted again once the customer binds a new card.', example: false })
  waitingForNewCard: boolean;

  @ApiTimeProperty('While in dunning: when collection gives up and the final action applies.', { nullable: true })
  givesUpAt: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Technical failures since the last definite outcome (retried on their own backoff).', example: 0 })
  technicalFailures: number;

  @ApiProperty({ type: DunningLastErrorDto, nullable: true, description: 'The last failure, or null.' })
  lastError: DunningLastErrorDto | null;

  @ApiProperty({ type: [DunningAttemptDto], description: 'Every payment attempt, first first.' })
  attempts: DunningAttemptDto[];
}
