import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../events/event-types';
import { ApiIdProperty, ApiNullableText, ApiTimeProperty } from '../../common/api-docs/api-properties';

/** Documentation of one delivery attempt (webhook-responses.ts). */
@ApiSchema({ name: 'WebhookDeliveryAttempt' })
export class WebhookAttemptResponseDto {
  @ApiIdProperty('The attempt id.')
  id: string;

  @ApiIdProperty('The delivery it belongs to (one per event and endpoint, and one per redelivery).')
  deliveryId: string;

  @ApiIdProperty('The event sent (its webhook-id).')
  eventId: string;

  @ApiProperty({ enum: EVENT_TYPES, nullable: true, description: 'Read-only: the type of the event sent; null once the event is no longer kept (30 days).', example: 'charge.succeeded' })
  eventType: string | null;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the first attempt of its delivery.', example: 1 })
  attempt: number;

  @ApiProperty({ enum: ['succeeded', 'failed'], description: 'succeeded: a 2xx came within 10 s.', example: 'failed' })
  status: 'succeeded' | 'failed';

  @ApiProperty({ type: 'integer', nullable: true, description: 'The HTTP status answered; null when none came (timeout, refused connection).', example: 503 })
  responseStatus: number | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'From sending to the answer (or the timeout).', example: 84 })
  durationMs: number;

  @ApiNullableText(
    'What failed, as a fixed code: `http_<status>` (e.g. `http_503`), `timeout`, `connection_refused`, `connection_reset`, `dns_failed`, `tls_failed`, `host_unreachable`, `connection_failed`, or `target_refused: <why>` (the address is not an allowed webhook target). Never the text the receiver answered.',
    'http_503',
  )
  error: string | null;

  @ApiTimeProperty('When the delivery is tried again after this attempt; null after a success or once the retry window is over.', { nullable: true })
  nextAttemptAt: string | null;

  @ApiTimeProperty('When it was sent (real time).')
  createdAt: string;
}
