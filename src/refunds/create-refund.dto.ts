import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { REFUND_DESTINATIONS, REFUND_REASONS, RefundDestination, RefundReason } from './refund.entity';
import { REFUND_REFERENCE_PATTERN } from './refund-reference';

const REFERENCE_MESSAGE = 'reference must be 1..64 letters, digits and ._:- (^[A-Za-z0-9._:-]{1,64}$)';
const AMOUNT_MESSAGE = 'amount must be a whole number of minor units, at least 1';

/** POST /api/v1/charges/:id/refunds */
@ApiSchema({ name: 'CreateRefund' })
export class CreateRefundDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "Minor units. Default: all that can still be refunded this way (for `card`, what the card paid less its refunds; never more than the charge's amount less every refund).",
    example: 1000,
  })
  @IsOptional()
  @IsInt({ message: AMOUNT_MESSAGE })
  @Min(1, { message: AMOUNT_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: AMOUNT_MESSAGE })
  amount?: number;

  @ApiPropertyOptional({
    enum: REFUND_DESTINATIONS,
    default: 'card',
    description: "`card`: through the provider, to the card the charge was paid with; `balance`: to the customer's credit balance, at once. The part of the charge the credit balance paid (`paidFromBalance`) goes back only to the balance.",
  })
  @IsOptional()
  @IsIn(REFUND_DESTINATIONS, { message: `to must be one of: ${REFUND_DESTINATIONS.join(', ')}` })
  to?: RefundDestination;

  @ApiPropertyOptional({ enum: REFUND_REASONS, description: 'Why the money goes back.' })
  @IsOptional()
  @IsIn(REFUND_REASONS, { message: `reason must be one of: ${REFUND_REASONS.join(', ')}` })
  reason?: RefundReason;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 64,
    pattern: REFUND_REFERENCE_PATTERN.source,
    description:
      'Your own unique name for this refund. The same reference with the same request answers the existing refund (200); with another, 409 `refund_reference_taken`. A card refund with a reference is safe to send again after the database was restored to an earlier point, in any order: it meets the refund the provider already made.',
    example: 'crm-ticket-4711',
  })
  @IsOptional()
  @IsString({ message: REFERENCE_MESSAGE })
  @Matches(REFUND_REFERENCE_PATTERN, { message: REFERENCE_MESSAGE })
  reference?: string;
}
