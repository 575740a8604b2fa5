import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty } from '../../common/api-docs/api-properties';

/** Documentation of what a listed event is about (event-about.ts): read-only, never part of a webhook's body. */
@ApiSchema({ name: 'EventAbout' })
export class EventAboutDto {
  @ApiIdProperty("The customer the event's object belongs to (a customer event: the customer itself); null when none (a payout).", { nullable: true })
  customerId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "How a person knows that customer: their email, else their phone; null when the customer has neither or none applies.", example: 'anna@example.com' })
  customerName: string | null;

  @ApiIdProperty("The plan of a subscription event's subscription; null otherwise.", { nullable: true })
  planId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "That plan's name, as it is now; null when no plan applies.", example: 'Pro' })
  planName: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The money it is about, minor units: a charge, refund or payout its amount, a notice before a renewal the coming charge; null otherwise.',
    example: 99000,
  })
  amount: number | null;

  @ApiProperty({ type: String, nullable: true, pattern: '^[A-Z]{3}$', description: "The amount's ISO 4217 code; null without an amount.", example: 'RUB' })
  currency: string | null;
}
