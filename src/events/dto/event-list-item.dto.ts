import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EventAboutDto } from './event-about.dto';
import { EventResponseDto } from './event-response.dto';

/** Documentation of an event in the list: the event as its webhooks carry it, and what it is about by name. */
@ApiSchema({ name: 'EventListItem' })
export class EventListItemDto extends EventResponseDto {
  @ApiProperty({
    type: EventAboutDto,
    description: 'Read-only, in the list only (never in a webhook body): the customer, plan and amount the event is about, named as they are now.',
  })
  about: EventAboutDto;
}
