import { Injectable } from '@nestjs/common';
import type { Customer } from '../../gateway/provider-api.types';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { queryInteger, QueryParams } from '../http/query-params';
import { SandboxConfig } from '../sandbox-config';
import { pageAfter } from '../state/event-paging';
import { uniqueSnowflake } from '../state/ids';
import type { CustomerRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { AccessTokensService } from './access-tokens.service';
import { CardVaultService } from './card-vault.service';
import { IdempotencyService } from './idempotency.service';
import { BindingsService } from './bindings.service';
import { WebhookEventsService } from './webhook-events.service';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^\+\d{4,15}$/;

/** Customers, the binding requests (BindingsService carries a binding on to its outcome) and the customer event stream. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly tokens: AccessTokensService,
    private readonly idempotency: IdempotencyService,
    private readonly vault: CardVaultService,
    private readonly bindings: BindingsService,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

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
    const record = this.bindings.start(customer, tool, externalID);
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

  /** A customer of this sandbox, or undefined. */
  find(customerID: string): CustomerRecord | undefined {
    return this.store.state.customers.get(customerID);
  }

  private requireCustomer(customerID: string): CustomerRecord {
    const customer = this.store.state.customers.get(customerID);
    if (!customer) throw ProviderError.capi404('Customer not found');
    return customer;
  }
}
