import { Injectable, Logger } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { SystemClock } from '../common/clock/system-clock';
import { eventBody } from '../events/event-response';
import type { MerchantEvent } from '../events/event.entity';
import { SecretBoxService } from './secret-box.service';
import { SecretUnreadableError } from './secret-unreadable.error';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookHttpClient, WebhookHttpResult } from './webhook-http.client';

/** One attempt as it went out: when (real time) and what came back. */
export interface SentAttempt extends WebhookHttpResult {
  sentAt: Date;
}

/**
 * Sends one event to one endpoint per the Standard Webhooks specification: the event's JSON as the body (the same
 * bytes on every delivery), `webhook-id` = the event id, `webhook-timestamp` = the real time of sending, and
 * `webhook-signature` made with the endpoint's secret (and, during a rotation, the previous one too).
 */
@Injectable()
export class WebhookSenderService {
  private readonly logger = new Logger(WebhookSenderService.name);

  constructor(
    private readonly http: WebhookHttpClient,
    private readonly secrets: SecretBoxService,
    private readonly clock: SystemClock,
  ) {}

  async send(endpoint: WebhookEndpoint, event: MerchantEvent): Promise<SentAttempt> {
    const body = eventBody(event);
    const sentAt = this.clock.now();
    let signature: string;
    try {
      signature = this.sign(endpoint, event.id, sentAt, body);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      this.logger.error({ endpointId: endpoint.id }, `Webhook endpoint ${endpoint.id}: ${error.message}; rotate its secret (POST .../rotate-secret) or restore the key`);
      return { sentAt, status: null, durationMs: 0, error: 'not sent: the signing secret cannot be decrypted (SECRETS_KEY changed); rotate the secret' };
    }
    const result = await this.http.post(endpoint.url, body, {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    });
    return { ...result, sentAt };
  }

  /** `v1,<sig>`, space-separated when a rotated-out secret is still in its grace period. */
  private sign(endpoint: WebhookEndpoint, eventId: string, sentAt: Date, body: string): string {
    const secrets = [this.secrets.open(endpoint.secretCiphertext, endpoint.id)];
    if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > sentAt) {
      secrets.push(this.secrets.open(endpoint.previousSecretCiphertext, endpoint.id));
    }
    return secrets.map((secret) => new Webhook(secret).sign(eventId, sentAt, body)).join(' ');
  }
}
