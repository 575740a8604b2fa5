import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventNamesService } from '../events/event-names.service';
import { PlansService } from './plans.service';

/** Lets the events list name the plans its subscription events are about, in one read of this module's table. */
@Injectable()
export class PlanEventNames implements OnModuleInit {
  constructor(
    private readonly names: EventNamesService,
    private readonly plans: PlansService,
  ) {}

  onModuleInit(): void {
    this.names.register('plan', async (ids) => new Map((await this.plans.getMany(ids)).map((plan) => [plan.id, plan.name])));
  }
}
