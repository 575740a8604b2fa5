import { Injectable, Logger } from '@nestjs/common';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { CustomerEvent } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { CustomerBindingsRepository } from './customer-bindings.repository';
import { BindingObservation, foldEvent, ProviderView } from './customer-event-fold';
import { cardSummaryFrom } from './sync-schedule';
import type { SyncTarget } from './sync-target';

const EVENTS_PAGE_SIZE = 100;
/** At most this many pages per read, so one customer with a huge history cannot hold a worker for long. */
const MAX_EVENT_PAGES = 50;

/**
 * Reads one customer at the provider for the follower: its new events folded into binding observations, its
 * status, and the active card's details. Only reads; the caller records the view.
 */
@Injectable()
export class CustomerProviderReaderService {
  private readonly logger = new Logger(CustomerProviderReaderService.name);

  constructor(
    private readonly gateway: ProcessingGateway,
    private readonly bindings: CustomerBindingsRepository,
  ) {}

  /** Every provider read for one customer: new events, the customer's status, and the active card's details. */
  async read(target: SyncTarget): Promise<ProviderView> {
    const observations = new Map<string, BindingObservation>();
    let lastEventId = target.lastEventId;
    let newestSucceeded: string | undefined;
    let moreEvents = false;
    let restarted = false;
    for (let page = 0; ; page += 1) {
      if (page === MAX_EVENT_PAGES) {
        moreEvents = true;
        break;
      }
      let events: CustomerEvent[];
      try {
        events = await this.gateway.getCustomerEvents(target.providerCustomerId, { limit: EVENTS_PAGE_SIZE, eventID: lastEventId ?? undefined });
      } catch (error) {
        // 404 is either "Customer not found" or "Event not found" (our cursor names no event, e.g. the provider's
        // history was reset). GET customer tells them apart: it throws not_found when the customer is gone.
        if (!(error instanceof ProviderError && error.kind === 'not_found') || lastEventId === null || restarted) throw error;
        await this.gateway.getCustomer(target.providerCustomerId);
        this.logger.warn(`Customer ${target.id}: the provider has no event ${lastEventId}; reading its events from the start`);
        restarted = true;
        lastEventId = null;
        observations.clear();
        newestSucceeded = undefined;
        continue;
      }
      const before = lastEventId;
      for (const event of events) {
        // Guards against a provider repeating events we already have.
        if (lastEventId !== null && event.id <= lastEventId) continue;
        newestSucceeded = foldEvent(observations, event) ?? newestSucceeded;
        lastEventId = event.id;
      }
      if (events.length < EVENTS_PAGE_SIZE || lastEventId === before) break;
    }

    const customer = await this.gateway.getCustomer(target.providerCustomerId);
    const view: ProviderView = { observations, lastEventId, moreEvents, restarted, status: customer.status };

    // A success among the new events is newer than the active card; without one, only fill a missing card.
    let candidate = newestSucceeded;
    if (candidate === undefined && (target.activeBindingId === null || !target.hasCard)) {
      candidate = target.activeBindingId ?? (await this.bindings.findNewestSucceededProviderId(target.id));
    }
    if (candidate !== undefined && (candidate !== target.activeBindingId || !target.hasCard)) {
      const binding = await this.gateway.getBinding(target.providerCustomerId, candidate);
      if (binding.status === 'succeeded') {
        view.activeCard = { providerBindingId: candidate, card: cardSummaryFrom(binding.paymentResource?.paymentToolDetails) };
      }
    }
    return view;
  }
}
