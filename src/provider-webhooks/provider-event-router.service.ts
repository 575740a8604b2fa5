import { Injectable } from '@nestjs/common';

/** What a provider event is about: a refund's events come on the invoice topic and name the invoice. */
export type ProviderEventKind = 'invoice' | 'refund' | 'customer' | 'withdrawal' | 'destination';

/** A verified, stored provider event as a domain sees it. */
export interface ReceivedProviderEvent {
  kind: ProviderEventKind;
  eventType: string;
  /** The provider's id of the invoice (for a refund too), customer, withdrawal or destination. */
  objectId: string;
  payload: Record<string, unknown>;
}

/**
 * `applied`: the domain took it (its state machine reads the provider now); `ignored`: nothing to do for this type;
 * `unknown_object`: nothing of ours matches (yet); `busy`: the object is being worked on right now, try shortly.
 */
export type ApplyOutcome = 'applied' | 'ignored' | 'unknown_object' | 'busy';

export type ProviderEventHandler = (event: ReceivedProviderEvent) => Promise<ApplyOutcome>;

/**
 * Hands each provider event to the domain that owns its object. Domains register here (billing for invoices, refunds
 * for refunds, customers for customers, payouts for withdrawals and destinations), so this module depends on none of them.
 */
@Injectable()
export class ProviderEventRouter {
  private readonly handlers = new Map<ProviderEventKind, ProviderEventHandler>();

  on(kind: ProviderEventKind, handler: ProviderEventHandler): void {
    this.handlers.set(kind, handler);
  }

  route(event: ReceivedProviderEvent): Promise<ApplyOutcome> {
    const handler = this.handlers.get(event.kind);
    return handler ? handler(event) : Promise.resolve('ignored');
  }
}
