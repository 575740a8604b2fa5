import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiMetadataAnswer, ApiNullableText, ApiTimeProperty } from '../../common/api-docs/api-properties';
import type { CustomerStatus } from '../customer.entity';
import { CardResponseDto } from './card-response.dto';
import { PendingBindingResponseDto } from './pending-binding-response.dto';

/** Documentation of a customer as the admin API answers it (customer.response.ts builds it). */
@ApiSchema({ name: 'Customer' })
export class CustomerResponseDto {
  @ApiIdProperty('The customer id.')
  id: string;

  @ApiProperty({ description: "The customer's id at the provider.", example: '2Zm9Uq1cJ8' })
  providerCustomerId: string;

  @ApiProperty({ enum: ['unready', 'ready'], description: '`ready` once a card is bound; the daemon follows unready customers on its own.', example: 'ready' })
  status: CustomerStatus;

  @ApiProperty({ type: CardResponseDto, nullable: true, description: 'The active card, once there is one.' })
  card: CardResponseDto | null;

  @ApiProperty({ type: PendingBindingResponseDto, nullable: true, description: 'The newest binding still in progress, and what it waits for from the payer.' })
  pendingBinding: PendingBindingResponseDto | null;

  @ApiProperty({
    type: Boolean,
    description:
      "Read-only: the customer's newest declined charge was declined for an expired card (the provider's `card_expired`) and that card is still the active one: no new card was bound since. The daemon never sees a card's expiry date, so this is the only sign of it. False in the copies events carry.",
    example: false,
  })
  cardExpired: boolean;

  @ApiTimeProperty('When the customer first became ready.', { nullable: true })
  readyAt: string | null;

  @ApiNullableText('Contact email given at creation.', 'payer@example.com')
  email: string | null;

  @ApiNullableText('Contact phone given at creation.', '+79991234567')
  phone: string | null;

  @ApiMetadataAnswer()
  metadata: Record<string, unknown>;

  @ApiProperty({ description: "The provider's shop the customer belongs to.", example: 'shop-1' })
  shopId: string;

  @ApiPropertyOptional({
    description: "Only with the built-in sandbox: its hosted binding form for this customer. It carries the access token only in the answers that issue one; elsewhere add `&customerAccessToken=…`.",
    example: 'http://127.0.0.1:8081/sandbox/hosted-form?customerID=2Zm9Uq1cJ8',
  })
  hostedFormUrl?: string;

  @ApiTimeProperty('When the customer was created.')
  createdAt: string;

  @ApiTimeProperty('When the customer last changed.')
  updatedAt: string;
}
