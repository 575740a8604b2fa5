import { ApiSchema } from '@nestjs/swagger';

/** For actions that take no body: with the global whitelist, any field sent is refused with 400. */
@ApiSchema({ name: 'EmptyBody', description: 'No fields: send `{}` or no body at all. Any field is refused (400).' })
export class EmptyBodyDto {}
