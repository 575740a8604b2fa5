import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { CardBoundNotifierService } from './card-bound-notifier.service';
import { BindingFailure, CustomerAnnouncerService } from './customer-announcer.service';
import { CustomerBindingsRepository } from './customer-bindings.repository';
import { BindingObservation, bindingPatch, newObservedBinding, ProviderView } from './customer-event-fold';
import type { CustomerStatus } from './customer.entity';
import { CustomersRepository, CustomerSyncPatch } from './customers.repository';
import { WebhookHealthService } from '../provider-webhooks/webhook-health.service';
import { BINDING_NOT_STARTED_CODE, nextPollDelayMs, UNSTARTED_BINDING_GIVE_UP_MS } from './sync-schedule';
import type { SyncTarget } from './sync-target';

/** How much slower a customer is polled while the provider's customer webhooks arrive. */
const SAFETY_NET_SLOWDOWN = 5;

/**
 * Records what one read of a customer at the provider learned: binding rows, the customer's status, readyAt and
 * active card, the event cursor, when to read it next, and the merchant events of what changed (a binding failed,
 * a card was bound). All in one short transaction, never across a provider call.
 */
@Injectable()
export class CustomerSyncWriterService {
  private readonly logger = new Logger(CustomerSyncWriterService.name);

  constructor(
    private readonly customers: CustomersRepository,
    private readonly bindings: CustomerBindingsRepository,
    private readonly clock: Clock,
    private readonly webhooks: WebhookHealthService,
    private readonly announcer: CustomerAnnouncerService,
    private readonly cardBound: CardBoundNotifierService,
  ) {}

  /**
   * Records the view in one short transaction. Returns true when the customer has just become ready. A card bound (the
   * one `customer.ready` announces) is told to the listeners once committed.
   */
  async record(target: SyncTarget, view: ProviderView): Promise<boolean> {
    const { becameReady, cardBound } = await this.recordInTransaction(target, view);
    if (cardBound) this.cardBound.notify(target.id);
    return becameReady;
  }

  private recordInTransaction(target: SyncTarget, view: ProviderView): Promise<{ becameReady: boolean; cardBound: boolean }> {
    return this.customers.transaction(async (em) => {
      // Lock the customer first (startBinding does the same), then its bindings.
      const current = await this.customers.lockForSync(target.id, em);
      if (!current) return { becameReady: false, cardBound: false };

      // Every time the API shows is business time; the poll schedule below stays on real time.
      const now = this.clock.now();
      const failures: BindingFailure[] = [];
      for (const observation of view.observations.values()) {
        const failure = await this.applyObservation(em, target.id, observation, now);
        if (failure) failures.push(failure);
      }
      const unstarted = await this.bindings.failUnstarted(target.id, BINDING_NOT_STARTED_CODE, UNSTARTED_BINDING_GIVE_UP_MS, now, em);
      failures.push(...unstarted.map((bindingId) => ({ bindingId, code: BINDING_NOT_STARTED_CODE })));

      // A slower concurrent reader (refresh racing the follower) must not put back an older picture.
      const behind = !view.restarted && current.last_event_id !== null && (view.lastEventId ?? 0) < current.last_event_id;
      let becameReady = false;
      let announceReady = false;
      let activeBindingId = current.active_binding_id;
      if (!behind) {
        const patch: CustomerSyncPatch = {};
        let readyAt: Date | undefined;
        if (view.status !== current.status) patch.status = view.status;
        if (view.status === 'ready' && current.status !== 'ready') {
          becameReady = true;
          readyAt = now;
        }
        if (view.activeCard) {
          const card = view.activeCard.card;
          patch.activeBindingId = view.activeCard.providerBindingId;
          patch.cardBin = card?.bin ?? null;
          patch.cardLastDigits = card?.lastDigits ?? null;
          patch.cardPaymentSystem = card?.paymentSystem ?? null;
          activeBindingId = view.activeCard.providerBindingId;
          if (card) await this.bindings.recordCard(view.activeCard.providerBindingId, card, now, em);
        }
        // customer.ready once per successful binding, when the customer is ready and that binding is its active card:
        // never on the status alone (the card may not be read yet), never again for a binding already announced.
        if (view.status === 'ready' && activeBindingId !== null && activeBindingId !== current.announced_binding_id) {
          announceReady = true;
          patch.announcedBindingId = activeBindingId;
        }
        if (readyAt || Object.keys(patch).length > 0) {
          // readyAt keeps the first time: an update never clears it.
          if (readyAt) await this.customers.recordReadyAt(target.id, readyAt, em);
          if (Object.keys(patch).length > 0) await this.customers.update(target.id, patch, now, em);
          else await this.customers.touch(target.id, now, em);
        }
        if (view.restarted) {
          await this.customers.resetLastEventId(target.id, view.lastEventId, em);
        } else if (view.lastEventId !== null) {
          await this.customers.advanceLastEventId(target.id, view.lastEventId, em);
        }
      }

      const status = behind ? current.status : view.status;
      await this.announcer.announce(em, target.id, { ready: announceReady, failures });
      const delayMs = await this.nextDelay(em, target.id, status, activeBindingId, current.real_created_at, view.moreEvents);
      await this.customers.scheduleNextSync(target, delayMs, em);
      return { becameReady, cardBound: announceReady };
    });
  }

  /**
   * Inserts or updates the local row of one provider binding; an API binding is matched by the externalID we sent.
   * Answers the failure when the binding has just become failed.
   */
  private async applyObservation(em: EntityManager, customerId: string, observation: BindingObservation, now: Date): Promise<BindingFailure | undefined> {
    // Without a row it was not started through our API (the hosted form): a new row without an externalId.
    const existing = await this.bindings.findObserved(customerId, observation, em);
    const row = existing ?? (await this.bindings.insertObserved(newObservedBinding(customerId, observation), now, em));
    if (!row) return undefined;
    if (row.customerId !== customerId) {
      this.logger.error(`Provider binding ${observation.providerBindingId} is already recorded for another customer (${row.customerId}); ignored`);
      return undefined;
    }
    const patch = bindingPatch(row, observation);
    if (Object.keys(patch).length > 0) await this.bindings.update(row.id, patch, now, em);
    // The customer is locked, so a row this call did not find was inserted by it, with the observed status.
    const failedNow = patch.status === 'failed' || (!existing && row.status === 'failed');
    return failedNow ? { bindingId: row.id, code: patch.errorCode ?? row.errorCode } : undefined;
  }

  /**
   * Null when nothing is left to learn (ready, active card known, no binding in progress); otherwise the backoff for
   * how long the newest binding in progress (or, without one, the customer) has been waiting.
   */
  private async nextDelay(
    em: EntityManager,
    customerId: string,
    status: CustomerStatus,
    activeBindingId: string | null,
    customerRealCreatedAt: Date,
    moreEvents: boolean,
  ): Promise<number | null> {
    if (moreEvents) return 0;
    const { dbNow, newestCreatedAt } = await this.bindings.newestOpenBinding(customerId, em);
    // While the provider's customer events arrive, a poll is only the safety net for a lost one.
    const slower = (delay: number | null) => (delay !== null && this.webhooks.isFlowing('customer') ? delay * SAFETY_NET_SLOWDOWN : delay);
    if (newestCreatedAt !== null) return slower(nextPollDelayMs(dbNow.getTime() - newestCreatedAt.getTime()));
    if (status === 'ready' && activeBindingId !== null) return null;
    // Unready (the payer may still use the hosted form) or ready with no card known yet.
    return slower(nextPollDelayMs(dbNow.getTime() - customerRealCreatedAt.getTime()));
  }
}
