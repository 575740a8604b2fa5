import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventNamesService } from '../events/event-names.service';
import { CustomersRepository } from './customers.repository';

/** Lets the events list name the customers its events are about, read from this module's own table. */
@Injectable()
export class CustomerEventNames implements OnModuleInit {
  constructor(
    private readonly names: EventNamesService,
    private readonly customers: CustomersRepository,
  ) {}

  onModuleInit(): void {
    this.names.register('customer', (ids) => this.customers.namesOf(ids));
  }
}
