import type { BodyReader } from '../http/body-reader';

/** The provider's limit on a webhook URL. */
const MAX_WEBHOOK_URL_LENGTH = 1000;

/** `eventTypes`: an array of names from the topic's list (the schema's enum), kept in the order given. */
export function readEventTypes<T extends string>(scope: BodyReader, allowed: readonly T[]): T[] {
  const value = scope.raw()['eventTypes'];
  if (value === undefined) throw scope.violation('eventTypes', 'is required');
  if (!Array.isArray(value)) throw scope.violation('eventTypes', 'must be an array');
  return value.map((item: unknown, index) => {
    if (typeof item !== 'string' || !(allowed as readonly string[]).includes(item)) {
      throw scope.violation(`eventTypes[${index}]`, `must be one of ${allowed.join(', ')}`);
    }
    return item as T;
  });
}

/** `url`: an absolute http(s) URL of at most 1000 characters. */
export function readWebhookUrl(params: BodyReader): string {
  const url = params.requireString('url', { min: 1, max: MAX_WEBHOOK_URL_LENGTH });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw params.violation('url', 'must be an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw params.violation('url', 'must be an http or https URL');
  return url;
}
