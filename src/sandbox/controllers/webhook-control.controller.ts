import { BadRequestException, Controller, Get, Query } from '@nestjs/common';
import { DELIVERY_HISTORY_CAPACITY, WebhookDeliveryService } from '../services/webhook-delivery.service';
import type { DeliveryStatus, WebhookApi, WebhookDelivery } from '../state/webhook-state';

const APIS: readonly WebhookApi[] = ['processing', 'wallet'];
const STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'dropped', 'dead'];

/** Unauthenticated view of webhook deliveries for tests and demos. Never part of the provider's API. */
@Controller('sandbox')
export class WebhookControlController {
  constructor(private readonly deliveries: WebhookDeliveryService) {}

  /** Oldest first: each event for each webhook, its body, status and every attempt. */
  @Get('webhook-deliveries')
  list(@Query('api') api?: string, @Query('webhookID') webhookID?: string, @Query('status') status?: string, @Query('limit') limit?: string): WebhookDelivery[] {
    if (api !== undefined && !(APIS as readonly string[]).includes(api)) throw new BadRequestException(`api must be one of ${APIS.join(', ')}`);
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new BadRequestException(`status must be one of ${STATUSES.join(', ')}`);
    let max: number | undefined;
    if (limit !== undefined) {
      max = Number(limit);
      if (!Number.isSafeInteger(max) || max < 1 || max > DELIVERY_HISTORY_CAPACITY) throw new BadRequestException(`limit must be an integer in 1..${DELIVERY_HISTORY_CAPACITY}`);
    }
    return this.deliveries.list({ api: api as WebhookApi | undefined, webhookID: webhookID || undefined, status: status as DeliveryStatus | undefined, limit: max });
  }
}
