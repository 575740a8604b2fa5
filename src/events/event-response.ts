import type { MerchantEvent } from './event.entity';

/** The event as GET /api/v1/events/:id shows it and as every webhook delivery carries it (byte for byte). */
export function toEventResponse(event: MerchantEvent) {
  return { id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), actor: event.actor, data: event.data };
}

/** The body of every delivery of this event: the same bytes each time, so a signature covers what the GET shows. */
export function eventBody(event: MerchantEvent): string {
  return JSON.stringify(toEventResponse(event));
}
