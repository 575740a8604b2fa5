import type { WebhookAttempt } from './webhook-attempt.entity';
import type { WebhookEndpoint } from './webhook-endpoint.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Endpoints saved before credentials in URLs were refused: never shown with their user name and password. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** An endpoint as every answer shows it: never its secret (see toCreatedWebhookEndpointResponse). */
export function toWebhookEndpointResponse(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: withoutCredentials(endpoint.url),
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    consecutiveFailures: endpoint.consecutiveFailures,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** The creation (and rotation) answer: the only place the signing secret appears in clear. */
export function toCreatedWebhookEndpointResponse(endpoint: WebhookEndpoint, secret: string) {
  return { ...toWebhookEndpointResponse(endpoint), secret, previousSecretExpiresAt: iso(endpoint.previousSecretExpiresAt) };
}

/** `eventType`: the type of the event sent, read from the events module (null once the event is pruned). */
export function toWebhookAttemptResponse(attempt: WebhookAttempt, eventType: string | null) {
  return {
    id: attempt.id,
    deliveryId: attempt.deliveryId,
    eventId: attempt.eventId,
    eventType,
    attempt: attempt.number,
    status: attempt.status,
    responseStatus: attempt.responseStatus,
    durationMs: attempt.durationMs,
    error: attempt.error,
    nextAttemptAt: iso(attempt.nextAttemptAt),
    createdAt: attempt.createdAt.toISOString(),
  };
}
