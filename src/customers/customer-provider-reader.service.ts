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
    const events: EventsRead = { observations: new Map(), lastEventId: target.lastEventId, newestSucceeded: undefined, moreEvents: false, restarted: false };
    await this.readEvents(target, events);
    const customer = await this.gateway.getCustomer(target.providerCustomerId);
    // Ready, yet no binding success among the events read a moment ago: it landed between the two reads. One more
    // page of events finds it, so the customer and its card are recorded together.
    if (customer.status === 'ready' && events.newestSucceeded === undefined && target.activeBindingId === null && !events.moreEvents) {
      await this.readEvents(target, events);
    }
    const view: ProviderView = { observations: events.observations, lastEventId: events.lastEventId, moreEvents: events.moreEvents, restarted: events.restarted, status: customer.status };

    // A success among the new events is newer than the active card; without one, only fill a missing card.
    let candidate = events.newestSucceeded;
    if (candidate === undefined && (target.activeBindingId === null || !target.hasCard)) {
      candidate = target.activeBindingId ?? (await this.bindings.findNewestSucceededProviderId(target.id));
    }
    if (candidate !== undefined && (candidate !== target.activeBindingId || !target.hasCard)) {
      const binding = await this.gateway.getBinding(target.providerCustomerId, candidate);
      if (binding.status === 'succeeded') {
        const card = cardSummaryFrom(binding.paymentResource?.paymentToolDetails);
        view.activeCard = { providerBindingId: candidate, card };
        // The binding row records what made it the active card, even when its own event is still to come.
        const observation = events.observations.get(candidate) ?? { providerBindingId: candidate };
        events.observations.set(candidate, {
          ...observation,
          ...(binding.externalID !== undefined ? { externalId: binding.externalID } : {}),
          status: 'succeeded',
          errorCode: null,
          card: observation.card ?? card,
        });
      }
    }
    return view;
  }

  /** Reads the customer's events after the cursor in `state`, folding them into its observations. */
  private async readEvents(target: SyncTarget, state: EventsRead): Promise<void> {
    for (let page = 0; ; page += 1) {
      if (page === MAX_EVENT_PAGES) {
        state.moreEvents = true;
        break;
      }
      let events: CustomerEvent[];
      try {
        events = await this.gateway.getCustomerEvents(target.providerCustomerId, { limit: EVENTS_PAGE_SIZE, eventID: state.lastEventId ?? undefined });
      } catch (error) {
        // 404 is either "Customer not found" or "Event not found" (our cursor names no event, e.g. the provider's
        // history was reset). GET customer tells them apart: it throws not_found when the customer is gone.
        if (!(error instanceof ProviderError && error.kind === 'not_found') || state.lastEventId === null || state.restarted) throw error;
        await this.gateway.getCustomer(target.providerCustomerId);
        this.logger.warn(`Customer ${target.id}: the provider has no event ${state.lastEventId}; reading its events from the start`);
        state.restarted = true;
        state.lastEventId = null;
        state.observations.clear();
        state.newestSucceeded = undefined;
        continue;
      }
      const before = state.lastEventId;
      for (const event of events) {
        // Guards against a provider repeating events we already have.
        if (state.lastEventId !== null && event.id <= state.lastEventId) continue;
        state.newestSucceeded = foldEvent(state.observations, event) ?? state.newestSucceeded;
        state.lastEventId = event.id;
      }
      if (events.length < EVENTS_PAGE_SIZE || state.lastEventId === before) break;
    }
  }
}

/** What reading a customer's events has learned so far. */
interface EventsRead {
  observations: Map<string, BindingObservation>;
  lastEventId: number | null;
  newestSucceeded: string | undefined;
  moreEvents: boolean;
  restarted: boolean;
}
