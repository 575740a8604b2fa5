import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ActorResponseDto } from '../../common/auth/actor-response.dto';
import { ApiIdProperty, ApiTimeProperty } from '../../common/api-docs/api-properties';
import { EVENT_TYPES } from '../event-types';
import { EventDataDto } from './event-data.dto';

/** Documentation of an event as the admin API answers it and as every webhook delivery carries it (event-response.ts). */
@ApiSchema({ name: 'Event' })
export class EventResponseDto {
  @ApiIdProperty('The event id; the `webhook-id` of its deliveries (deduplicate by it).')
  id: string;

  @ApiProperty({ enum: EVENT_TYPES, description: 'What happened.', example: 'charge.succeeded' })
  type: string;

  @ApiTimeProperty('When it happened, in real time (never the test clock).')
  createdAt: string;

  @ApiProperty({ type: ActorResponseDto, description: 'Who made the change.' })
  actor: ActorResponseDto;

  @ApiProperty({ type: EventDataDto })
  data: EventDataDto;
}
