import { createHash, randomUUID } from 'node:crypto';
import { BadGatewayException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { ListOptions, Page } from '../common/http/pagination';
import { AppConfig } from '../config/app-config';
import { failureCodePath } from '../gateway/failure-code';
import { ProcessingGateway } from '../gateway/processing.gateway';
import type { CustomerAndToken, CustomerBinding as ProviderBinding } from '../gateway/provider-api.types';
import { ProviderError } from '../gateway/provider-error';
import { CardExpiryFlagsService } from './card-expiry-flags.service';
import { CustomerAnnouncerService } from './customer-announcer.service';
import { CustomerBindingsRepository } from './customer-bindings.repository';
import type { CustomerBinding } from './customer-binding.entity';
import { CustomerSyncService } from './customer-sync.service';
import { Customer } from './customer.entity';
import {
  AccessTokenResponse,
  BindingResponse,
  CreatedCustomerResponse,
  CustomerResponse,
  toBindingResponse,
  toCustomerResponse,
} from './customer.response';
import type { CreateCustomerDto } from './dto/create-customer.dto';
import type { ListCustomersQueryDto } from './dto/list-customers-query.dto';
import type { StartBindingDto } from './dto/start-binding.dto';
import { CustomerPayer, CustomersRepository } from './customers.repository';
import { HostedFormLinkService } from './hosted-form-link.service';
import { httpErrorForProvider } from '../gateway/provider-error-to-http';
import { cardSummaryFrom } from './sync-schedule';

/** Stable provider externalIDs (≤ 40 characters) derived from our own ids, so a repeated call finds the same object. */
const customerExternalId = (customerId: string): string => `c${customerId.replace(/-/g, '')}`;
const bindingExternalId = (bindingId: string): string => `b${bindingId.replace(/-/g, '')}`;

/** Until the follower first looks at a new binding; it is moved to "now" once the provider has answered. */
const FIRST_LOOK_AFTER_INTENT_SECONDS = 10;

/**
 * Customers and their card bindings. The provider owns the truth; this service starts things there and keeps
 * rows the follower (CustomerSyncService) then keeps up to date. Never holds a transaction across a provider call.
 */
@Injectable()
export class CustomersService {
  private readonly logger = new Logger(CustomersService.name);

  constructor(
    private readonly customers: CustomersRepository,
    private readonly bindings: CustomerBindingsRepository,
    private readonly gateway: ProcessingGateway,
    private readonly sync: CustomerSyncService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly hostedForm: HostedFormLinkService,
    private readonly announcer: CustomerAnnouncerService,
    private readonly cardFlags: CardExpiryFlagsService,
  ) {}

  /**
   * Creates the customer at the provider, then here. With an Idempotency-Key the provider externalID is
   * derived from it, so a client retrying after a lost answer gets the same provider customer, not a second one.
   * The access token is handed back in this answer only: it is neither stored nor logged.
   */
  async create(dto: CreateCustomerDto, idempotencyKey?: string): Promise<CreatedCustomerResponse> {
    const id = randomUUID();
    const shopId = dto.shopId ?? this.config.providerShopId;
    const metadata = dto.metadata ?? {};
    let created: CustomerAndToken;
    try {
      created = await this.gateway.createCustomer({
        shopID: shopId,
        contactInfo: { ...(dto.email !== undefined && { email: dto.email }), ...(dto.phone !== undefined && { phoneNumber: dto.phone }) },
        metadata: { ...metadata, daemonCustomerId: id },
        externalID: idempotencyKey ? `c${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}` : customerExternalId(id),
      });
    } catch (error) {
      throw this.providerFailure(error, 'create the customer');
    }

    // The follower starts following the new customer at once. A replay of an earlier create answers the provider
    // customer that row already holds.
    const now = this.clock.now();
    await this.customers.insertIfAbsent({
      id,
      providerCustomerId: created.customer.id,
      shopId,
      email: dto.email ?? null,
      phone: dto.phone ?? null,
      metadata,
      status: created.customer.status === 'ready' ? 'ready' : 'unready',
      createdAt: now,
      updatedAt: now,
    });
    const customer = await this.customers.findByProviderCustomerIdOrFail(created.customer.id);
    const token = created.customerAccessToken.payload;
    return {
      ...(await this.respond(customer, token)),
      customerAccessToken: token,
      customerAccessTokenRenewal: `POST /api/v1/customers/${customer.id}/access-token`,
    };
  }

  /** Whether a customer exists, its shop and whether it can pay now: what a new subscription needs to know. */
  async findStanding(id: string): Promise<Pick<Customer, 'id' | 'shopId' | 'status'> | null> {
    const customer = await this.customers.findById(id);
    return customer ? { id: customer.id, shopId: customer.shopId, status: customer.status } : null;
  }

  /** Who pays for several customers at the provider, in one read (the billing engine's batches). */
  payersOf(ids: string[]): Promise<CustomerPayer[]> {
    return this.customers.payersOf(ids);
  }

  async get(id: string): Promise<CustomerResponse> {
    return this.respond(await this.find(id));
  }

  async list(query: ListCustomersQueryDto): Promise<Page<CustomerResponse>> {
    const page = await this.customers.page(query);
    const [open, expired] = await Promise.all([this.bindings.newestOpenByCustomer(page.items.map((customer) => customer.id)), this.cardFlags.expiredCardsOf(page.items)]);
    return { items: page.items.map((customer) => this.toResponse(customer, open.get(customer.id) ?? null, expired.has(customer.id))), nextCursor: page.nextCursor };
  }

  async getBinding(customerId: string, bindingId: string): Promise<BindingResponse> {
    await this.find(customerId);
    const binding = await this.bindings.findOfCustomer(customerId, bindingId);
    if (!binding) throw new NotFoundException(`Binding ${bindingId} of customer ${customerId} not found`);
    return toBindingResponse(binding);
  }

  /**
   * A new customer access token from the provider, for a lost or expired one (tokens live three days). Earlier
   * tokens stay valid until they expire. Like the one from create, it is handed back here only: neither stored nor
   * logged. A lost answer is not replayed: asking again simply issues another token.
   */
  async issueAccessToken(id: string): Promise<AccessTokenResponse> {
    const customer = await this.find(id);
    let token: string;
    try {
      token = (await this.gateway.createCustomerAccessToken(customer.providerCustomerId)).payload;
    } catch (error) {
      throw this.providerFailure(error, 'issue a customer access token');
    }
    const hostedFormUrl = this.hostedForm.link(customer.providerCustomerId, token);
    return { customerAccessToken: token, ...(hostedFormUrl !== undefined && { hostedFormUrl }) };
  }

  async listBindings(customerId: string, options: ListOptions): Promise<Page<BindingResponse>> {
    await this.find(customerId);
    const page = await this.bindings.page(customerId, options);
    return { items: page.items.map(toBindingResponse), nextCursor: page.nextCursor };
  }

  /**
   * Starts a binding with a card the merchant tokenized. The intent (a pending row with its externalID) is written
   * first, then the provider is called outside any transaction, then its answer is recorded. When the answer is
   * lost the row becomes `unknown` and the follower finds the binding in the customer's events by that externalID.
   * `reservedId`: the id the request's Idempotency-Key reserved, the binding's; a re-run of the key answers the
   * binding the first run started, and sends an intent the provider may never have seen again under its externalID.
   */
  async startBinding(customerId: string, dto: StartBindingDto, reservedId?: string): Promise<{ id: string; status: 'pending' }> {
    const customer = await this.find(customerId);
    const started = reservedId === undefined ? null : await this.bindings.findOfCustomer(customer.id, reservedId);
    if (started && (started.providerBindingId !== null || started.status !== 'pending')) return { id: started.id, status: 'pending' };
    const bindingId = started?.id ?? reservedId ?? randomUUID();
    const externalId = bindingExternalId(bindingId);
    const syncChange = await this.customers.transaction(async (em) => {
      // Customer first, like the follower, so the two never wait on each other in opposite order. The early sync
      // time makes the follower look even if this process dies before the provider answers.
      const change = await this.customers.bringSyncForward(customer.id, FIRST_LOOK_AFTER_INTENT_SECONDS, em);
      if (!started) await this.bindings.insertIntent({ id: bindingId, customerId: customer.id, externalId }, this.clock.now(), em);
      return change;
    });

    let binding: ProviderBinding;
    try {
      binding = await this.gateway.createBinding(customer.providerCustomerId, {
        paymentResource: { paymentToolToken: dto.paymentToolToken, paymentSession: dto.paymentSession },
        externalID: externalId,
      });
    } catch (error) {
      // A 409 says a binding with our externalID exists after all: that one is followed, not undone.
      if (error instanceof ProviderError && error.isDefinitelyNotApplied && error.kind !== 'conflict') {
        // Nothing exists at the provider: undo the intent, so a refused request changes nothing (the follow-up
        // time too, unless someone moved it since).
        await this.customers.transaction(async (em) => {
          await this.bindings.deleteUnstartedIntent(bindingId, em);
          await this.customers.undoSyncForward(customer.id, syncChange, em);
        });
        throw this.providerFailure(error, 'start the binding');
      }
      // The binding may exist: keep the row and let the follower resolve it from the events.
      this.logger.warn(`Binding ${bindingId} of customer ${customer.id}: create-binding outcome unknown, the follower will resolve it: ${describe(error)}`);
      await this.bindings.markOutcomeUnknown(bindingId, this.clock.now());
      await this.customers.followNow(customer.id);
      return { id: bindingId, status: 'pending' };
    }

    const card = cardSummaryFrom(binding.paymentResource?.paymentToolDetails);
    const errorCode = binding.status === 'failed' ? failureCodePath(binding.error) : null;
    await this.customers.transaction(async (em) => {
      // Only a row still in progress takes the answer: the follower may already have recorded a later status (and
      // announced it); a failure answered at once is announced here, with the row that records it.
      const recorded = await this.bindings.recordCreateAnswer(
        bindingId,
        {
          providerBindingId: binding.id,
          status: binding.status,
          errorCode,
          ...(card && { cardBin: card.bin, cardLastDigits: card.lastDigits, cardPaymentSystem: card.paymentSystem }),
        },
        this.clock.now(),
        em,
      );
      if (recorded && binding.status === 'failed') await this.announcer.announce(em, customer.id, { ready: false, failures: [{ bindingId, code: errorCode }] });
    });
    await this.customers.followNow(customer.id);
    return { id: bindingId, status: 'pending' };
  }

  /** Reads the provider now, as the follower would, and answers the customer. */
  async refresh(id: string): Promise<CustomerResponse> {
    const result = await this.sync.syncNow(id);
    if (!result) throw notFound(id);
    if (result.outcome === 'not_found') {
      throw new BadGatewayException(`The provider no longer knows customer ${id}; the daemon has stopped following it`);
    }
    if (result.error) throw httpErrorForProvider(result.error, 'read the customer');
    if (result.outcome === 'error') throw new Error(`Refreshing customer ${id} failed; see the daemon log`);
    return this.get(id);
  }

  /** The customer as every answer shows it; the hosted form link carries the token only when one is given. */
  private async respond(customer: Customer, customerAccessToken?: string): Promise<CustomerResponse> {
    const [open, expired] = await Promise.all([this.bindings.newestOpenByCustomer([customer.id]), this.cardFlags.expiredCardsOf([customer])]);
    return this.toResponse(customer, open.get(customer.id) ?? null, expired.has(customer.id), customerAccessToken);
  }

  private toResponse(customer: Customer, pendingBinding: CustomerBinding | null, cardExpired: boolean, customerAccessToken?: string): CustomerResponse {
    return toCustomerResponse(customer, { hostedFormUrl: this.hostedForm.link(customer.providerCustomerId, customerAccessToken), pendingBinding, cardExpired });
  }

  private async find(id: string): Promise<Customer> {
    const customer = await this.customers.findById(id);
    if (!customer) throw notFound(id);
    return customer;
  }

  private providerFailure(error: unknown, action: string): Error {
    if (!(error instanceof ProviderError)) return error instanceof Error ? error : new Error(String(error));
    this.logger.warn(`Could not ${action}: ${error.message}`);
    return httpErrorForProvider(error, action);
  }
}

function notFound(id: string): NotFoundException {
  return new NotFoundException(`Customer ${id} not found`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
