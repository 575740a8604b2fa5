import { BadRequestException, Injectable, Logger, UnauthorizedException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { withErrorCode } from '../common/errors/coded-error';
import { MetricsService } from '../common/metrics/metrics.service';
import { SystemClock } from '../common/clock/system-clock';
import type { ProviderWebhookEvent } from '../gateway/provider-webhook.types';
import { verifyProviderSignature } from '../gateway/provider-webhook-signature';
import { parseJsonBody } from '../common/http/json-body.middleware';
import { WorkRunnerService } from '../work/work-runner.service';
import { PROVIDER_EVENTS_QUEUE } from './provider-event-applier.service';
import type { ProviderWebhookTopic } from './provider-webhook.entity';
import { ProviderEventsRepository } from './provider-events.repository';
import { ProviderWebhooksRepository } from './provider-webhooks.repository';
import { WebhookHealthService } from './webhook-health.service';

/** Keys are read again at most this often when a signature fails (another replica may have just registered). */
const KEY_REFRESH_MS = 2_000;

/** The topic a delivered event names (wallet payloads use the singular), and the registration topic it belongs to. */
const TOPICS: Record<string, ProviderWebhookTopic> = {
  InvoicesTopic: 'InvoicesTopic',
  CustomersTopic: 'CustomersTopic',
  WithdrawalTopic: 'WithdrawalsTopic',
  DestinationTopic: 'DestinationsTopic',
};

type Result = 'accepted' | 'duplicate' | 'bad_signature' | 'malformed';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 && value.length <= 40 ? value : undefined);

/**
 * Takes one delivery of the provider's webhooks: checks the signature over the exact bytes against the keys the
 * provider gave at registration, stores the event once (a repeat changes nothing), and leaves applying it to the
 * work engine. Nothing unsigned, forged or signed with an unknown key is stored.
 */
@Injectable()
export class ProviderEventIntakeService {
  private readonly logger = new Logger(ProviderEventIntakeService.name);
  private readonly received: Counter<'topic' | 'result'>;
  private keys: { topic: ProviderWebhookTopic; publicKey: string }[] = [];
  private keysReadAt = 0;

  constructor(
    private readonly events: ProviderEventsRepository,
    private readonly webhooks: ProviderWebhooksRepository,
    private readonly health: WebhookHealthService,
    private readonly runner: WorkRunnerService,
    private readonly clock: SystemClock,
    metrics: MetricsService,
  ) {
    this.received = metrics.counter({ name: 'billing_provider_webhooks_received_total', help: 'Provider webhook deliveries received, by topic and result', labelNames: ['topic', 'result'] });
  }

  /** Answers whether the event was new; throws a 4xx for anything it refuses. */
  async receive(rawBody: Buffer | undefined, signature: string | undefined, contentType: string | undefined): Promise<{ duplicate: boolean }> {
    if (!Buffer.isBuffer(rawBody)) {
      throw withErrorCode(new BadRequestException(['Send the provider event as the body of POST /webhooks/provider, spelt exactly so']), 'malformed_request');
    }
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') {
      throw withErrorCode(new UnsupportedMediaTypeException(`Content-Type ${type || '(none)'} is not supported: the provider sends application/json`), 'unsupported_media_type');
    }
    const signedFor = await this.verifiedTopics(rawBody, signature, () => true);
    if (signedFor.size === 0) {
      this.count('unknown', 'bad_signature');
      throw withErrorCode(new UnauthorizedException('The Content-Signature does not verify with any key the provider gave this daemon'), 'unauthorized');
    }
    const event = this.parse(rawBody);
    const topic = TOPICS[event.topic];
    // Each key verifies only the topic it was registered for: a wallet key cannot vouch for an invoice event. (The
    // topic's own key may have been registered since the keys were read: read them again first.)
    if (!signedFor.has(topic) && !(await this.verifiedTopics(rawBody, signature, (found) => found.has(topic))).has(topic)) {
      this.count(event.topic, 'bad_signature');
      throw withErrorCode(new UnauthorizedException(`The Content-Signature was made with a key registered for another topic than ${topic}`), 'unauthorized');
    }
    const inserted = await this.events.insertIfNew(event);
    await this.webhooks.touchTopic(topic);
    this.health.noteReceived(topic);
    this.count(event.topic, inserted ? 'accepted' : 'duplicate');
    if (inserted) this.runner.kick(PROVIDER_EVENTS_QUEUE);
    return { duplicate: !inserted };
  }

  /** The topics whose registered keys verify the signature; the keys are read again (at most every 2 s) unless `enough`. */
  private async verifiedTopics(rawBody: Buffer, signature: string | undefined, enough: (found: Set<ProviderWebhookTopic>) => boolean): Promise<Set<ProviderWebhookTopic>> {
    const found = this.topicsVerifying(rawBody, signature);
    if (found.size > 0 && enough(found)) return found;
    const now = this.clock.now().getTime();
    if (now - this.keysReadAt < KEY_REFRESH_MS) return found;
    this.keys = await this.webhooks.publicKeys();
    this.keysReadAt = now;
    return this.topicsVerifying(rawBody, signature);
  }

  private topicsVerifying(rawBody: Buffer, signature: string | undefined): Set<ProviderWebhookTopic> {
    const topics = new Set<ProviderWebhookTopic>();
    for (const { topic, publicKey } of this.keys) {
      if (!topics.has(topic) && verifyProviderSignature(rawBody, signature, [publicKey])) topics.add(topic);
    }
    return topics;
  }

  private parse(rawBody: Buffer): { dedupeKey: string; topic: string; eventType: string; objectId: string; payload: Record<string, unknown> } {
    let payload: unknown;
    try {
      // The admin body rules (UTF-8, depth, NUL, lone surrogates): a signed event breaks nothing either.
      payload = parseJsonBody(rawBody);
    } catch (error) {
      this.count('unknown', 'malformed');
      this.logger.warn(`A signed provider event was refused: ${(error as Error).message}`);
      throw error;
    }
    const problem = (message: string) => {
      this.count('unknown', 'malformed');
      this.logger.warn(`A signed provider event was refused: ${message}`);
      return withErrorCode(new BadRequestException([message]), 'malformed_request');
    };
    if (!isRecord(payload)) throw problem('the event is not a JSON object');
    const { topic, eventType, eventID } = payload;
    if (typeof topic !== 'string' || !(topic in TOPICS)) throw problem('the event names no known topic');
    if (typeof eventType !== 'string' || eventType.length === 0 || eventType.length > 40) throw problem('the event has no eventType');
    if (!(typeof eventID === 'number' && Number.isSafeInteger(eventID)) && !idOf(eventID)) throw problem('the event has no eventID');
    const objectId = objectIdOf(payload as unknown as ProviderWebhookEvent);
    if (!objectId) throw problem(`the ${topic} event names no object`);
    return { dedupeKey: `${topic}|${objectId}|${String(eventID)}`, topic, eventType, objectId, payload: storedPayload(payload) };
  }

  private count(topic: string, result: Result): void {
    this.received.inc({ topic, result });
  }
}

/**
 * What is kept of an event: its scalar fields and, of each object it carries, the id and status. Handlers read the
 * provider anew and never the event's content, so payment tool tokens, sessions, card details and contact data
 * are not stored for the 30 days events are kept.
 */
function storedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) kept[key] = value;
    else if (isRecord(value)) kept[key] = Object.fromEntries(['id', 'status'].filter((k) => k in value && !isRecord(value[k])).map((k) => [k, value[k]]));
  }
  return kept;
}

/** The provider's id of the object an event is about: invoice, customer, withdrawal or destination (checked, not trusted). */
function objectIdOf(event: ProviderWebhookEvent): string | undefined {
  const nested = (value: unknown) => (isRecord(value) ? idOf(value.id) : undefined);
  switch (event.topic) {
    case 'InvoicesTopic':
      return nested(event.invoice);
    case 'CustomersTopic':
      return nested(event.customer);
    case 'WithdrawalTopic':
      return 'withdrawal' in event ? nested(event.withdrawal) : idOf(event.withdrawalID);
    case 'DestinationTopic':
      return 'destination' in event ? nested(event.destination) : idOf(event.destinationID);
  }
}
