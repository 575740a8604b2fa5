import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Customer, CustomerBinding, CustomerChange, UserInteraction } from '../../gateway/provider-api.types';
import { cardDetails } from '../cards/card-details';
import { CARD_GROUPS } from '../cards/card-outcomes';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { queryInteger, QueryParams } from '../http/query-params';
import { SandboxConfig } from '../sandbox-config';
import { pageAfter } from '../state/event-paging';
import { opaqueToken, uniqueSnowflake } from '../state/ids';
import type { BindingRecord, CardProfile, CustomerRecord, PaymentToolRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { AccessTokensService } from './access-tokens.service';
import { CardVaultService } from './card-vault.service';
import { IdempotencyService } from './idempotency.service';
import { SandboxScheduler } from './sandbox-scheduler.service';
import { WebhookEventsService } from './webhook-events.service';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^\+\d{4,15}$/;

/** The binding's test charge, refunded at once: 10 RUB, 1 USD or 1 EUR, in minor units. */
const BINDING_CHARGE: Readonly<Record<string, number>> = { RUB: 1000, USD: 100, EUR: 100 };

/** Customers, card bindings (always through 3-D Secure) and the customer event stream. */
@Injectable()
export class CustomersService implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly tokens: AccessTokensService,
    private readonly idempotency: IdempotencyService,
    private readonly vault: CardVaultService,
    private readonly scheduler: SandboxScheduler,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Bindings still pending when the state file was saved finish after a restart. */
  onApplicationBootstrap(): void {
    for (const [id, record] of this.store.state.bindings) {
      if (record.binding.status === 'pending') this.scheduleCompletion(id);
    }
  }

  /** Operation 1. */
  create(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'CustomerParams');
    const shopID = params.requireString('shopID', { min: 1, max: 40 });
    const contact = params.requireObject('contactInfo');
    const email = contact.optionalString('email', { max: 100, pattern: EMAIL });
    const phoneNumber = contact.optionalString('phoneNumber', { pattern: PHONE });
    const metadata = params.requireRecord('metadata');
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });
    const contactInfo = { ...(email !== undefined ? { email } : {}), ...(phoneNumber !== undefined ? { phoneNumber } : {}) };

    const features = { shopID, contactInfo };
    const existingID = this.idempotency.existing('createCustomer', externalID, features);
    const existing = existingID !== undefined ? this.store.state.customers.get(existingID) : undefined;
    if (existing) return created({ customer: existing.customer, customerAccessToken: { payload: this.tokens.issue('customer', existing.customer.id) } });

    if (this.config.shopId !== undefined && shopID !== this.config.shopId) throw ProviderError.capi400('invalidShopID', 'Shop not found');
    const id = uniqueSnowflake(this.store.state.customers);
    const customer: Customer = { id, ...(externalID !== undefined ? { externalID } : {}), shopID, contactInfo, metadata, status: 'unready' };
    this.store.state.customers.set(id, { customer, events: [], bindingIDs: [] });
    this.webhookEvents.customerCreated(customer);
    this.idempotency.remember('createCustomer', externalID, features, id);
    return created({ customer, customerAccessToken: { payload: this.tokens.issue('customer', id) } });
  }

  /** Operation 2. */
  get(customerID: string): ProviderReply {
    return ok(this.requireCustomer(customerID).customer);
  }

  /** POST /v2/processing/customers/{id}/access-tokens: a fresh token for the hosted form. */
  createAccessToken(customerID: string): ProviderReply {
    this.requireCustomer(customerID);
    return created({ payload: this.tokens.issue('customer', customerID) });
  }

  /** Operation 3. */
  createBinding(customerID: string, body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'CustomerBindingParams');
    const resource = params.requireObject('paymentResource');
    const token = resource.requireString('paymentToolToken', { min: 1, max: 2000 });
    const session = resource.requireString('paymentSession', { min: 1, max: 1000 });
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });
    const customer = this.requireCustomer(customerID);

    const tool = this.vault.paymentTool(token);
    if (!tool) throw ProviderError.capi400('invalidPaymentToolToken', 'Specified payment tool token is invalid');
    // The provider compares the decrypted card, not the token text.
    const features = { customerID, paymentSession: session, card: tool.card.fingerprint };
    const existingID = this.idempotency.existing('createBinding', externalID, features);
    const existing = existingID !== undefined ? this.store.state.bindings.get(existingID) : undefined;
    if (existing) return created(existing.binding);

    if (tool.expiresAt <= Date.now()) throw ProviderError.capi400('invalidPaymentToolToken', 'Specified payment tool token is invalid');
    if (tool.session !== session) throw ProviderError.capi400('invalidPaymentSession', 'Specified payment session is invalid');
    const record = this.startBinding(customer, tool, externalID);
    this.idempotency.remember('createBinding', externalID, features, record.binding.id);
    return created(record.binding);
  }

  /** GET .../customers/{id}/bindings. */
  listBindings(customerID: string): ProviderReply {
    const customer = this.requireCustomer(customerID);
    return ok(customer.bindingIDs.map((id) => this.store.state.bindings.get(id)?.binding).filter((b) => b !== undefined));
  }

  /** GET .../customers/{id}/bindings/{bindingID}. */
  getBinding(customerID: string, bindingID: string): ProviderReply {
    this.requireCustomer(customerID);
    const record = this.store.state.bindings.get(bindingID);
    if (!record || record.customerID !== customerID) throw ProviderError.capi404('Customer binding not found');
    return ok(record.binding);
  }

  /** Operation 4: events strictly after `eventID`, at most `limit`. */
  events(customerID: string, query: QueryParams): ProviderReply {
    const limit = queryInteger(query, 'limit', { required: true, min: 1 });
    const eventID = queryInteger(query, 'eventID');
    const customer = this.requireCustomer(customerID);
    const page = pageAfter(customer.events, eventID, limit);
    if (!page) throw ProviderError.capi404('Event not found');
    return ok(page);
  }

  /**
   * Starts a binding from a vaulted card: operation 3 and the hosted form both come here. 3-D Secure is
   * always required, so the redirect is requested at once and the test bank answers after bindingMs.
   */
  startBinding(customer: CustomerRecord, tool: PaymentToolRecord, externalID?: string): BindingRecord {
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
    this.emit(customer, { changeType: 'CustomerBindingInteractionRequested', customerBindingID: id, userInteraction: this.acsRedirect(id, tool.card) });
    this.webhookEvents.binding(customer, record, 'CustomerBindingStarted');
    this.scheduleCompletion(id);
    return record;
  }

  /** A customer of this sandbox, or undefined. */
  find(customerID: string): CustomerRecord | undefined {
    return this.store.state.customers.get(customerID);
  }

  /** The binding as it is now (the hosted form waits on it). */
  bindingStatus(bindingID: string): CustomerBinding | undefined {
    return this.store.state.bindings.get(bindingID)?.binding;
  }

  private requireCustomer(customerID: string): CustomerRecord {
    const customer = this.store.state.customers.get(customerID);
    if (!customer) throw ProviderError.capi404('Customer not found');
    return customer;
  }

  private scheduleCompletion(bindingID: string): void {
    this.scheduler.after(this.config.delays.bindingMs, () => this.completeBinding(bindingID));
  }

  /** The test bank's answer for the binding's card: the customer becomes ready on the first success. */
  private completeBinding(bindingID: string): void {
    const { state } = this.store;
    const record = state.bindings.get(bindingID);
    const customer = record ? state.customers.get(record.customerID) : undefined;
    if (!record || !customer || record.binding.status !== 'pending') return;
    const behaviour = CARD_GROUPS[record.card.group];
    if (behaviour.interactionCompletes) this.emit(customer, { changeType: 'CustomerBindingInteractionCompleted', customerBindingID: bindingID });
    if (behaviour.failure) {
      const error = { code: behaviour.failure.split(':')[0], message: behaviour.label };
      record.binding.status = 'failed';
      record.binding.error = error;
      this.emit(customer, { changeType: 'CustomerBindingStatusChanged', customerBindingID: bindingID, status: 'failed', error: { ...error } });
      this.webhookEvents.binding(customer, record, 'CustomerBindingFailed');
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

  private emit(customer: CustomerRecord, change: CustomerChange): void {
    customer.events.push({ id: customer.events.length + 1, createdAt: new Date().toISOString(), changes: [change] });
  }

  private acsRedirect(bindingID: string, card: CardProfile): UserInteraction {
    const acsUrl = `${this.config.baseUrl}/sandbox/acs`;
    if (CARD_GROUPS[card.group].acsRequest === 'BrowserGetRequest') {
      return { interactionType: 'Redirect', request: { requestType: 'BrowserGetRequest', uriTemplate: `${acsUrl}?MD=${bindingID}` } };
    }
    return {
      interactionType: 'Redirect',
      request: {
        requestType: 'BrowserPostRequest',
        uriTemplate: acsUrl,
        form: [
          { key: 'PaReq', template: opaqueToken(24) },
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
