import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { CustomerBinding, CustomerChange, UserInteraction } from '../../gateway/provider-api.types';
import { cardDetails } from '../cards/card-details';
import { CARD_GROUPS } from '../cards/card-outcomes';
import { SandboxConfig } from '../sandbox-config';
import { opaqueToken, uniqueSnowflake } from '../state/ids';
import type { BindingRecord, CustomerRecord, PaymentToolRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookEventsService } from './webhook-events.service';

/** The binding's test charge, refunded at once: 10 RUB, 1 USD or 1 EUR, in minor units. */
const BINDING_CHARGE: Readonly<Record<string, number>> = { RUB: 1000, USD: 100, EUR: 100 };

/** The failure of a 3-D Secure check the payer never finished (the provider's redirect timer ran out). */
const THREE_DS_TIMEOUT = { code: 'preauthorization_failed', message: '3-D Secure Timeout' };

const SETTLE_POLL_MS = 10;

/** What confirming at the ACS page led to. */
export type AcsConfirmation = 'completing' | 'issuer_silent';

/**
 * A card binding from start to outcome. Cards of the test bank's 3-D Secure rows ask for a redirect to the ACS
 * page and wait there for the payer (`CustomerBindingInteractionRequested`); confirming lets the test bank answer
 * by the card's row, and a check nobody confirms fails when `threeDsTimeoutMs` runs out. Other cards are answered
 * by the test bank after `bindingMs`, with no interaction.
 */
@Injectable()
export class BindingsService implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Bindings still pending when the state file was saved finish after a restart; open checks keep their deadline. */
  onApplicationBootstrap(): void {
    for (const [id, record] of this.store.state.bindings) {
      if (record.binding.status !== 'pending') continue;
      if (record.interaction) this.scheduleTimeout(id, record.interaction.expiresAt - Date.now());
      else this.scheduleCompletion(id);
    }
  }

  /** Starts a binding from a vaulted card: operation 3 and the hosted form both come here. */
  start(customer: CustomerRecord, tool: PaymentToolRecord, externalID?: string): BindingRecord {
    const { state } = this.store;
    const id = uniqueSnowflake(state.bindings);
    const binding: CustomerBinding = {
      id,
      ...(externalID !== undefined ? { externalID } : {}),
      paymentResource: { paymentToolToken: tool.token, paymentSession: tool.session, paymentToolDetails: cardDetails(tool.card) },
      status: 'pending',
    };
    const record: BindingRecord = { binding, customerID: customer.customer.id, card: tool.card };
    state.bindings.set(id, record);
    customer.bindingIDs.push(id);
    this.emit(customer, { changeType: 'CustomerBindingStarted', customerBinding: structuredClone(binding) });
    this.webhookEvents.binding(customer, record, 'CustomerBindingStarted');
    if (CARD_GROUPS[tool.card.group].threeDs) {
      const timeoutMs = this.config.delays.threeDsTimeoutMs;
      record.interaction = { secret: opaqueToken(24), expiresAt: Date.now() + timeoutMs, confirmed: false };
      this.emit(customer, { changeType: 'CustomerBindingInteractionRequested', customerBindingID: id, userInteraction: this.acsRedirect(record) });
      this.scheduleTimeout(id, timeoutMs);
    } else {
      this.scheduleCompletion(id);
    }
    return record;
  }

  /** The binding once the test bank has answered, or as it is after `waitMs` (the result pages wait on it). */
  async settled(bindingID: string, waitMs: number): Promise<BindingRecord | undefined> {
    const deadline = Date.now() + waitMs;
    let record = this.store.state.bindings.get(bindingID);
    while (record?.binding.status === 'pending' && Date.now() < deadline) {
      await this.scheduler.sleep(SETTLE_POLL_MS);
      record = this.store.state.bindings.get(bindingID);
    }
    return record;
  }

  /** The binding whose 3-D Secure check this ACS link (MD and PaReq) opens; undefined when none waits for it. */
  waitingCheck(bindingID: unknown, secret: unknown): BindingRecord | undefined {
    if (typeof bindingID !== 'string' || typeof secret !== 'string') return undefined;
    const record = this.store.state.bindings.get(bindingID);
    if (!record?.interaction || record.binding.status !== 'pending') return undefined;
    const expected = Buffer.from(record.interaction.secret);
    const given = Buffer.from(secret);
    return expected.length === given.length && timingSafeEqual(expected, given) ? record : undefined;
  }

  /**
   * The payer confirmed at the ACS page: the test bank answers by the card's row after `bindingMs`, except for
   * 3-D Secure timeout cards, whose issuer never answers (the binding fails when the wait ends).
   */
  confirm(record: BindingRecord): AcsConfirmation {
    const customer = this.store.state.customers.get(record.customerID);
    if (!customer || !record.interaction) return 'issuer_silent';
    if (!CARD_GROUPS[record.card.group].interactionCompletes) {
      record.interaction.confirmed = true;
      this.store.changed();
      return 'issuer_silent';
    }
    record.interaction = undefined;
    this.emit(customer, { changeType: 'CustomerBindingInteractionCompleted', customerBindingID: record.binding.id });
    this.store.changed();
    this.scheduleCompletion(record.binding.id);
    return 'completing';
  }

  /**
   * Ends the wait of every open 3-D Secure check now, as if its payer's time had run out (a control for tests: they
   * end the wait once the payer has done what they watch, instead of guessing how long a busy machine takes to play
   * the payer). Only the check of `bindingID` when given. Answers how many checks it ended.
   */
  expireOpenChecks(bindingID?: string): number {
    let ended = 0;
    for (const [id, record] of this.store.state.bindings) {
      if (record.binding.status !== 'pending' || !record.interaction || (bindingID !== undefined && id !== bindingID)) continue;
      this.timeOut(id);
      ended += 1;
    }
    return ended;
  }

  private scheduleCompletion(bindingID: string): void {
    this.scheduler.after(this.config.delays.bindingMs, () => this.complete(bindingID));
  }

  private scheduleTimeout(bindingID: string, ms: number): void {
    this.scheduler.after(ms, () => this.timeOut(bindingID));
  }

  /** Nobody finished the 3-D Secure check in time: the binding fails, with no completed interaction. */
  private timeOut(bindingID: string): void {
    const { state } = this.store;
    const record = state.bindings.get(bindingID);
    const customer = record ? state.customers.get(record.customerID) : undefined;
    if (!record?.interaction || !customer || record.binding.status !== 'pending') return;
    record.interaction = undefined;
    this.fail(customer, record, THREE_DS_TIMEOUT);
    this.store.changed();
  }

  /** The test bank's answer for the binding's card: the customer becomes ready on the first success. */
  private complete(bindingID: string): void {
    const { state } = this.store;
    const record = state.bindings.get(bindingID);
    const customer = record ? state.customers.get(record.customerID) : undefined;
    if (!record || !customer || record.binding.status !== 'pending' || record.interaction) return;
    const behaviour = CARD_GROUPS[record.card.group];
    if (behaviour.failure) {
      this.fail(customer, record, { code: behaviour.failure.split(':')[0], message: behaviour.label });
    } else {
      record.binding.status = 'succeeded';
      // The latest bound card is the one later charges use.
      customer.activeBindingID = bindingID;
      customer.customer.status = 'ready';
      const currency = bindingCurrency(customer.customer.metadata);
      state.bindingCharges.push({
        customerID: customer.customer.id,
        bindingID,
        amount: BINDING_CHARGE[currency],
        currency,
        refunded: true,
        createdAt: new Date().toISOString(),
      });
      this.emit(customer, { changeType: 'CustomerBindingStatusChanged', customerBindingID: bindingID, status: 'succeeded' });
      this.webhookEvents.bindingSucceeded(customer, record);
    }
    this.store.changed();
  }

  private fail(customer: CustomerRecord, record: BindingRecord, error: { code: string; message: string }): void {
    record.binding.status = 'failed';
    record.binding.error = error;
    this.emit(customer, { changeType: 'CustomerBindingStatusChanged', customerBindingID: record.binding.id, status: 'failed', error: { ...error } });
    this.webhookEvents.binding(customer, record, 'CustomerBindingFailed');
  }

  private emit(customer: CustomerRecord, change: CustomerChange): void {
    customer.events.push({ id: customer.events.length + 1, createdAt: new Date().toISOString(), changes: [change] });
  }

  /** The redirect to the ACS page, as the test bank words it: a form POST, or a plain GET for "GET ACS" cards. */
  private acsRedirect(record: BindingRecord): UserInteraction {
    const acsUrl = `${this.config.baseUrl}/sandbox/acs`;
    const bindingID = record.binding.id;
    const secret = record.interaction?.secret ?? '';
    if (CARD_GROUPS[record.card.group].acsRequest === 'BrowserGetRequest') {
      const query = new URLSearchParams({ MD: bindingID, PaReq: secret });
      return { interactionType: 'Redirect', request: { requestType: 'BrowserGetRequest', uriTemplate: `${acsUrl}?${query.toString()}` } };
    }
    return {
      interactionType: 'Redirect',
      request: {
        requestType: 'BrowserPostRequest',
        uriTemplate: acsUrl,
        form: [
          { key: 'PaReq', template: secret },
          { key: 'MD', template: bindingID },
          { key: 'TermUrl', template: `${acsUrl}{?termination_uri}` },
        ],
      },
    };
  }
}

/** The charge currency: RUB unless the customer's metadata names USD or EUR under "currency". */
function bindingCurrency(metadata: Record<string, unknown>): string {
  const wanted = metadata['currency'];
  return typeof wanted === 'string' && Object.hasOwn(BINDING_CHARGE, wanted) ? wanted : 'RUB';
}
