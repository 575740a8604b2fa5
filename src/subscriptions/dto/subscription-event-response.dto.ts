import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ActorResponseDto } from '../../common/auth/actor-response.dto';
import { ApiIdProperty, ApiTimeProperty } from '../../common/api-docs/api-properties';
import type { SubscriptionStatus } from '../subscription.entity';
import { SUBSCRIPTION_STATUSES } from './list-subscriptions-query.dto';

/** Documentation of one entry of a subscription's audit trail. */
@ApiSchema({ name: 'SubscriptionEvent' })
export class SubscriptionEventResponseDto {
  @ApiIdProperty('The event id.')
  id: string;

  @ApiIdProperty('The subscription it is about.')
  subscriptionId: string;

  @ApiProperty({
    description:
      'What happened, e.g. created, trialing, activated, period_billed, charge_succeeded, charge_declined, charge_failed, past_due, dunning_exhausted, unpaid, paused, resumed, cancel_scheduled, canceled, periods_skipped.',
    example: 'charge_succeeded',
  })
  type: string;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, nullable: true, description: 'The status before, when the event changed it.', example: 'trialing' })
  fromStatus: SubscriptionStatus | null;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, nullable: true, description: 'The status after, when the event changed it.', example: 'active' })
  toStatus: SubscriptionStatus | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Details of the event (ids, amounts, error codes).', example: { chargeId: '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e' } })
  data: Record<string, unknown>;

  @ApiProperty({ type: ActorResponseDto, description: 'Who made the change.' })
  actor: ActorResponseDto;

  @ApiTimeProperty('When it happened, on the billing clock.', { nullable: true })
  occurredAt: string | null;

  @ApiTimeProperty('When it was recorded.', { nullable: true })
  createdAt: string | null;
}
