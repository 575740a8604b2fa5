import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { NewEvent } from '../events/event-types';
import { EventsService } from '../events/events.service';
import { CustomerBindingsRepository } from './customer-bindings.repository';
import { toCustomerResponse } from './customer.response';
import { CustomersRepository } from './customers.repository';
import { HostedFormLinkService } from './hosted-form-link.service';

/** A binding that has just failed, and the provider's code for why (ours when it never reached the provider). */
export interface BindingFailure {
  bindingId: string;
  code: string | null;
}

/**
 * The customer's merchant events, recorded in the transaction that made the change, with the customer as the admin
 * GET shows it at that moment (read back inside that transaction): `customer.binding_failed` for each binding that
 * failed, then `customer.ready` when a binding succeeded (the first card or a new one).
 */
@Injectable()
export class CustomerAnnouncerService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly bindings: CustomerBindingsRepository,
    private readonly hostedForm: HostedFormLinkService,
    private readonly events: EventsService,
  ) {}

  async announce(em: EntityManager, customerId: string, change: { ready: boolean; failures: BindingFailure[] }): Promise<void> {
    if (!change.ready && change.failures.length === 0) return;
    const customer = await this.customers.findById(customerId, em);
    if (!customer) return;
    // Built as CustomersService answers GET: the link without a token, and the binding still in progress, if any.
    const pending = (await this.bindings.newestOpenByCustomer([customerId], em)).get(customerId) ?? null;
    const object = toCustomerResponse(customer, { hostedFormUrl: this.hostedForm.link(customer.providerCustomerId), pendingBinding: pending });
    const events: NewEvent[] = change.failures.map((f) => ({
      type: 'customer.binding_failed',
      data: { object, error: { code: f.code, bindingId: f.bindingId } },
    }));
    if (change.ready) events.push({ type: 'customer.ready', data: { object } });
    await this.events.record(em, events);
  }
}
