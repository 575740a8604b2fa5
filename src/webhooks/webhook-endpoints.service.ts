import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SystemClock } from '../common/clock/system-clock';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { EventsService } from '../events/events.service';
import { WorkRunnerService } from '../work/work-runner.service';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { ListWebhookAttemptsQueryDto } from './dto/list-webhook-attempts-query.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { SecretBoxService } from './secret-box.service';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { newWebhookSecret } from './webhook-secret';
import { WebhookTargetCheck } from './webhook-target-check.service';
import { WebhookTuning } from './webhook-tuning';
import { withErrorCode } from '../common/errors/coded-error';

/** After a rotation, deliveries are signed with the old secret too for this long, so receivers can switch over. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;

/** The delivery loop's name on the work engine. */
export const WEBHOOKS_QUEUE = 'webhooks';

/** Webhook endpoints (their secrets sealed at rest), their attempt history, and redelivery on request. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsService,
    private readonly secrets: SecretBoxService,
    private readonly clock: SystemClock,
    private readonly runner: WorkRunnerService,
    private readonly targets: WebhookTargetCheck,
    private readonly tuning: WebhookTuning,
  ) {}

  /**
   * Answers the endpoint and its secret, in clear this once. `reservedId`: the id the request's Idempotency-Key
   * reserved; a re-run of a key whose answer was lost answers the endpoint made with it, and its secret (never seen).
   */
  async create(dto: CreateWebhookEndpointDto, reservedId?: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const made = reservedId === undefined ? null : await this.endpoints.findById(reservedId);
    if (made) return { endpoint: made, secret: this.secrets.open(made.secretCiphertext, made.id) };
    await this.targets.check(dto.url);
    const id = reservedId ?? randomUUID();
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.insertWithinCap(
      { id, url: dto.url, events: dto.events ?? ['*'], description: dto.description ?? null, secretCiphertext: this.secrets.seal(secret, id) },
      this.tuning.maxEndpoints,
    );
    if (!endpoint) {
      throw withErrorCode(
        new UnprocessableEntityException(`At most ${this.tuning.maxEndpoints} webhook endpoints can exist; delete one, or subscribe an existing one to more event types`),
        'business_rule',
      );
    }
    return { endpoint, secret };
  }

  list(query: ListQueryDto): Promise<Page<WebhookEndpoint>> {
    return this.endpoints.page(query);
  }

  /** Endpoints whose deliveries currently fail (for the dashboard). */
  failing(limit: number): Promise<{ count: number; items: WebhookEndpoint[] }> {
    return this.endpoints.failing(limit);
  }

  async get(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(id);
    if (!endpoint) throw new NotFoundException(`No webhook endpoint ${id}`);
    return endpoint;
  }

  async update(id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpoint> {
    const changes: Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'enabled'>> = {};
    if (dto.url !== undefined) {
      await this.targets.check(dto.url);
      changes.url = dto.url;
    }
    if (dto.events !== undefined) changes.events = dto.events;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.enabled !== undefined) changes.enabled = dto.enabled;
    const endpoint = await this.endpoints.update(id, changes);
    if (!endpoint) throw new NotFoundException(`No webhook endpoint ${id}`);
    return endpoint;
  }

  /** Deliveries still queued for it are dropped with it (their sender finds no endpoint). */
  async remove(id: string): Promise<void> {
    if (!(await this.endpoints.delete(id))) throw new NotFoundException(`No webhook endpoint ${id}`);
  }

  /** A new secret, answered in clear this once; the old one keeps signing too for PREVIOUS_SECRET_GRACE_MS. */
  async rotateSecret(id: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const current = await this.get(id);
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.update(id, {
      secretCiphertext: this.secrets.seal(secret, id),
      previousSecretCiphertext: current.secretCiphertext,
      previousSecretExpiresAt: new Date(this.clock.now().getTime() + PREVIOUS_SECRET_GRACE_MS),
    });
    if (!endpoint) throw new NotFoundException(`No webhook endpoint ${id}`);
    return { endpoint, secret };
  }

  /** A page of the endpoint's attempts, each with its event's type (one read of the events module for the page). */
  async attempts(id: string, query: ListWebhookAttemptsQueryDto): Promise<Page<{ attempt: WebhookAttempt; eventType: string | null }>> {
    await this.get(id);
    const page = await this.deliveries.attempts(id, query);
    const types = await this.events.typesOf([...new Set(page.items.map((a) => a.eventId))]);
    return { items: page.items.map((attempt) => ({ attempt, eventType: types.get(attempt.eventId) ?? null })), nextCursor: page.nextCursor };
  }

  /**
   * Sends an event again (the same body) to one endpoint, or to every enabled endpoint subscribed to its type.
   * A disabled endpoint is refused: enable it first.
   */
  async redeliver(eventId: string, endpointId: string | undefined): Promise<{ eventId: string; deliveries: { id: string; endpointId: string }[] }> {
    const event = await this.events.get(eventId);
    if (endpointId !== undefined) {
      const endpoint = await this.endpoints.findById(endpointId);
      if (!endpoint) throw new NotFoundException(`endpointId ${endpointId} names no webhook endpoint`);
      if (!endpoint.enabled) throw new ConflictException('The webhook endpoint is disabled; enable it before redelivering to it');
    }
    const made = await this.deliveries.redeliver(event.id, event.type, endpointId ?? null);
    this.runner.kick(WEBHOOKS_QUEUE);
    return { eventId: event.id, deliveries: made.map((d) => ({ id: d.id, endpointId: d.endpoint_id })) };
  }
}
