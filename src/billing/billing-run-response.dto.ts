import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Documentation of the counts a billing pass answers. */
@ApiSchema({ name: 'BillingRun' })
export class BillingRunResponseDto {
  @ApiProperty({ type: 'integer', description: 'Charges worked on in this pass (new periods, retries, outcomes still open).', example: 3 })
  due: number;

  @ApiProperty({ type: 'integer', description: 'Charges paid in this pass.', example: 2 })
  succeeded: number;

  @ApiProperty({ type: 'integer', description: 'Payment attempts declined in this pass.', example: 1 })
  declined: number;

  @ApiProperty({ type: 'integer', description: 'Attempts whose outcome was not final when the pass answered (a payment the provider had not decided within 15 s, a provider timeout); the engine follows them up.', example: 0 })
  unknown: number;

  @ApiProperty({
    type: 'integer',
    description:
      "Charges left for later without a provider call (counted in `due`, never in `unknown`): smart dunning attempts only between 08:00 and 21:00 in the subscription's timezone, so each waits for the next 08:00 there on the billing clock (the charge's `nextAttemptAt`, `waitingFor: allowed_hours`). With the test clock, a run after the clock reaches that time makes the attempt.",
    example: 0,
  })
  waitingForAllowedHours: number;

  @ApiProperty({
    type: 'integer',
    description: "Charges left for later without a provider call (counted in `due`) because one more attempt would pass the card network's 15 attempts in 30 days (`waitingFor: attempt_cap`).",
    example: 0,
  })
  waitingForAttemptCap: number;

  @ApiProperty({ type: 'integer', description: 'Due subscriptions not charged because their customer has no usable card yet.', example: 0 })
  skippedNotReady: number;

  @ApiProperty({ type: 'integer', description: 'Charges this pass made for periods that began (none when another replica made them first).', example: 2 })
  created: number;

  @ApiProperty({
    type: 'integer',
    description: "Due subscriptions whose period this pass could not make into a charge (an amount past the limit, a row the database refused): each shows why in its `billingError`, the others were billed, and it is tried again at the next pass.",
    example: 0,
  })
  failedSubscriptions: number;
}
