import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { SAMPLE_ID, SAMPLE_TIME } from '../../common/api-docs/api-properties';

/** Documentation of `data`: the object as its GET shows it, and what changed or failed. */
@ApiSchema({ name: 'EventData' })
export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The customer, subscription, charge or payout exactly as its admin GET showed it when the event happened.',
    example: { id: SAMPLE_ID, subscriptionId: SAMPLE_ID, status: 'succeeded', amount: 2500, currency: 'RUB', updatedAt: SAMPLE_TIME },
  })
  object: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'subscription.updated and subscription.canceled: the former values of the fields that changed.',
    example: { status: 'active' },
  })
  previous?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "customer.binding_failed: `code`, the provider's reason, and `bindingId`.",
    example: { code: 'preauthorization_failed', bindingId: SAMPLE_ID },
  })
  error?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'subscription.renewal_upcoming, subscription.trial_ending and subscription.discount_ending (the first renewal at full price after a coupon): the coming charge, `amount` (minor units), `currency` and `chargeAt` (the renewal, or the end of the trial).',
    example: { amount: 99000, currency: 'RUB', chargeAt: SAMPLE_TIME },
  })
  upcoming?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'charge.action_required: a fresh recovery link (`PUBLIC_URL/pay/<token>`) where the customer binds a new card for this charge; it revokes the charge\'s earlier links. null when links are off (a real provider without PROVIDER_CHECKOUT_URL).',
    example: 'https://billing.example.com/pay/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e.l0Vn0cYqgY0cQm1y4Qm8b0VdXyJ4P6oC2Yx7i3lM7aE',
  })
  recoveryUrl?: string | null;
}
