import { ParseUUIDPipe } from '@nestjs/common';
import { invalidField } from '../errors/coded-error';

/** Ids made by the daemon are UUIDs; anything else is bad input (400 naming the field), not an unknown id. */
export const UUID_PARAM = new ParseUUIDPipe({
  exceptionFactory: () => invalidField('id', 'id must be a UUID'),
});
