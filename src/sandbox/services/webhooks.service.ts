import { Injectable } from '@nestjs/common';
import { CUSTOMER_WEBHOOK_EVENT_TYPES, INVOICE_WEBHOOK_EVENT_TYPES, Webhook, WebhookScope } from '../../gateway/provider-api.types';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { SandboxConfig } from '../sandbox-config';
import { SandboxStateService } from '../state/sandbox-state.service';
import { readEventTypes, readWebhookUrl } from '../webhooks/webhook-params';
import { WebhookKeysService } from './webhook-keys.service';

/** Webhooks one party may have at once; the provider answers 429 beyond its limit (the sandbox's own number). */
const PROCESSING_WEBHOOK_LIMIT = 20;

/** Processing webhooks (/v2/processing/webhooks): registration, reads and deletion for the sandbox's one party. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly keys: WebhookKeysService,
  ) {}

  async create(body: unknown): Promise<ProviderReply> {
    const params = BodyReader.root(body, 'Webhook');
    const scopeReader = params.requireObject('scope');
    const topic = scopeReader.requireString('topic', { oneOf: ['InvoicesTopic', 'CustomersTopic'] });
    const shopID = scopeReader.requireString('shopID', { min: 1, max: 40 });
    const scope: WebhookScope =
      topic === 'InvoicesTopic'
        ? { topic, shopID, eventTypes: readEventTypes(scopeReader, INVOICE_WEBHOOK_EVENT_TYPES) }
        : { topic: 'CustomersTopic', shopID, eventTypes: readEventTypes(scopeReader, CUSTOMER_WEBHOOK_EVENT_TYPES) };
    const url = readWebhookUrl(params);

    if (this.config.shopId !== undefined && shopID !== this.config.shopId) throw ProviderError.capi400('invalidShopID', 'Shop not found');
    const webhooks = this.store.state.webhooks;
    this.checkLimit(webhooks.processing.size);
    const publicKey = await this.keys.partyPublicKey(webhooks);
    // Checked again: other registrations may have landed while the key was made.
    this.checkLimit(webhooks.processing.size);
    const webhook: Webhook = { id: String(webhooks.next('webhook')), active: true, scope, url, publicKey };
    webhooks.processing.set(webhook.id, webhook);
    return created(webhook);
  }

  list(): ProviderReply {
    return ok([...this.store.state.webhooks.processing.values()]);
  }

  get(webhookID: string): ProviderReply {
    return ok(this.require(webhookID));
  }

  /** Its pending deliveries are dropped when their turn comes (the delivery service finds the webhook gone). */
  remove(webhookID: string): ProviderReply {
    this.require(webhookID);
    this.store.state.webhooks.processing.delete(webhookID);
    return { status: 204 };
  }

  private checkLimit(count: number): void {
    if (count >= PROCESSING_WEBHOOK_LIMIT) throw new ProviderError(429, { message: 'Webhook limit exceeded' });
  }

  private require(webhookID: string): Webhook {
    const webhook = this.store.state.webhooks.processing.get(webhookID);
    if (!webhook) throw ProviderError.capi404('Webhook not found');
    return webhook;
  }
}
