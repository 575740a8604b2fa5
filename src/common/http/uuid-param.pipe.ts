import { BadRequestException, ParseUUIDPipe } from '@nestjs/common';

/** Ids made by the daemon are UUIDs; anything else is bad input (400 naming the field), not an unknown id. */
export const UUID_PARAM = new ParseUUIDPipe({
  exceptionFactory: () => new BadRequestException(['id must be a UUID']),
});
