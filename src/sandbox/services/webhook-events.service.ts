import { Injectable } from '@nestjs/common';
import type { Customer, CustomerWebhookEventType, Destination, InvoiceWebhookEventType, WebhookScope } from '../../gateway/provider-api.types';
import { REFUND_EVENT_SUBSCRIPTIONS } from '../../gateway/provider-webhook.types';
import type { BindingRecord, CustomerRecord, InvoiceRecord, PaymentRecord, RefundRecord, WithdrawalRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { webhookBinding, webhookCustomer, webhookInvoice, webhookPayment, webhookRefund } from '../webhooks/webhook-payloads';
import { WebhookDeliveryService } from './webhook-delivery.service';

type InvoiceEventType = 'InvoiceCreated' | 'InvoicePaid' | 'InvoiceCancelled';
type PaymentEventType = 'PaymentStarted' | 'PaymentProcessed' | 'PaymentCaptured' | 'PaymentFailed' | 'PaymentRefunded';
type RefundEventType = keyof typeof REFUND_EVENT_SUBSCRIPTIONS;
/** Whose webhooks a wallet event goes to: the identity's, narrowed to one wallet for scopes that name it. */
interface WalletOwner {
  identityID: string | undefined;
  walletID?: string;
}

/**
 * Turns the sandbox's state changes into the provider's webhook events: builds the body once (the bytes every
 * matching webhook gets and that get signed) and queues it for each active webhook whose scope matches. Services call
 * one method per change, after the change; with no webhook registered each call costs a map lookup.
 */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly store: SandboxStateService,
    private readonly delivery: WebhookDeliveryService,
  ) {}

  invoice(record: InvoiceRecord, eventType: InvoiceEventType): void {
    const { invoice } = record;
    this.processing('InvoicesTopic', invoice.shopID, eventType, invoice.id, () => ({ invoice: webhookInvoice(invoice) }));
  }

  payment(record: InvoiceRecord, payment: PaymentRecord, eventType: PaymentEventType): void {
    const { state } = this.store;
    const customer = state.customers.get(payment.customerID)?.customer;
    if (!customer) return;
    const binding = state.bindings.get(payment.bindingID)?.binding;
    this.processing('InvoicesTopic', record.invoice.shopID, eventType, record.invoice.id, () => ({
      invoice: webhookInvoice(record.invoice),
      payment: webhookPayment(payment.payment, customer, binding),
    }));
  }

  /** RefundCreated, RefundSucceeded or RefundFailed: delivered to webhooks subscribed to PaymentRefund… of that name. */
  refund(record: InvoiceRecord, payment: PaymentRecord, refund: RefundRecord, eventType: RefundEventType): void {
    const { state } = this.store;
    const customer = state.customers.get(payment.customerID)?.customer;
    if (!customer) return;
    const binding = state.bindings.get(payment.bindingID)?.binding;
    this.processing(
      'InvoicesTopic',
      record.invoice.shopID,
      eventType,
      record.invoice.id,
      () => ({ invoice: webhookInvoice(record.invoice), payment: webhookPayment(payment.payment, customer, binding), refund: webhookRefund(refund.refund) }),
      REFUND_EVENT_SUBSCRIPTIONS[eventType],
    );
  }

  customerCreated(customer: Customer): void {
    this.processing('CustomersTopic', customer.shopID, 'CustomerCreated', customer.id, () => ({ customer: webhookCustomer(customer) }));
  }

  binding(customer: CustomerRecord, binding: BindingRecord, eventType: 'CustomerBindingStarted' | 'CustomerBindingFailed'): void {
    this.processing('CustomersTopic', customer.customer.shopID, eventType, customer.customer.id, () => ({
      customer: webhookCustomer(customer.customer),
      binding: webhookBinding(binding.binding),
    }));
  }

  /** CustomerBindingSucceeded, then CustomerReady when this was the customer's first card to bind. */
  bindingSucceeded(customer: CustomerRecord, binding: BindingRecord): void {
    this.processing('CustomersTopic', customer.customer.shopID, 'CustomerBindingSucceeded', customer.customer.id, () => ({
      customer: webhookCustomer(customer.customer),
      binding: webhookBinding(binding.binding),
    }));
    const { bindings } = this.store.state;
    const succeeded = customer.bindingIDs.filter((id) => bindings.get(id)?.binding.status === 'succeeded').length;
    if (succeeded === 1 && customer.customer.status === 'ready') {
      this.processing('CustomersTopic', customer.customer.shopID, 'CustomerReady', customer.customer.id, () => ({ customer: webhookCustomer(customer.customer) }));
    }
  }

  withdrawalStarted(record: WithdrawalRecord): void {
    const { withdrawal } = record;
    this.wallet('WithdrawalTopic', this.owner(withdrawal.wallet), 'WithdrawalStarted', withdrawal.id, String(record.events.length), () => ({ withdrawal }));
  }

  /** WithdrawalSucceeded or WithdrawalFailed: ids only, the failure is read from the withdrawal. */
  withdrawalFinished(record: WithdrawalRecord): void {
    const { withdrawal } = record;
    const eventType = withdrawal.status === 'Failed' ? 'WithdrawalFailed' : 'WithdrawalSucceeded';
    this.wallet('WithdrawalTopic', this.owner(withdrawal.wallet), eventType, withdrawal.id, String(record.events.length), () => ({
      withdrawalID: withdrawal.id,
      ...(withdrawal.externalID !== undefined ? { externalID: withdrawal.externalID } : {}),
    }));
  }

  /** DestinationCreated, then DestinationUnauthorized: a destination is created in that status. */
  destinationCreated(destination: Destination): void {
    const owner = { identityID: destination.identity };
    this.wallet('DestinationTopic', owner, 'DestinationCreated', destination.id, '1', () => ({ destination }));
    this.wallet('DestinationTopic', owner, 'DestinationUnauthorized', destination.id, '2', () => destinationRef(destination));
  }

  destinationAuthorized(destination: Destination): void {
    this.wallet('DestinationTopic', { identityID: destination.identity }, 'DestinationAuthorized', destination.id, '3', () => destinationRef(destination));
  }

  private processing(
    topic: WebhookScope['topic'],
    shopID: string,
    eventType: InvoiceWebhookEventType | CustomerWebhookEventType | RefundEventType,
    objectID: string,
    content: () => object,
    subscribedAs: string = eventType,
  ): void {
    const webhooks = this.store.state.webhooks;
    if (webhooks.processing.size === 0) return;
    const targets = [...webhooks.processing.values()].filter(
      (w) => w.active && w.scope.topic === topic && w.scope.shopID === shopID && (w.scope.eventTypes as string[]).includes(subscribedAs),
    );
    if (targets.length === 0) return;
    const eventID = webhooks.next('event');
    const body = JSON.stringify({ eventID, occuredAt: new Date().toISOString(), topic, eventType, ...content() });
    const objectKey = `${topic === 'InvoicesTopic' ? 'invoice' : 'customer'}:${objectID}`;
    for (const w of targets) this.delivery.enqueue({ api: 'processing', webhookID: w.id, url: w.url, topic, eventType, eventID, objectKey, objectID, body });
  }

  /**
   * Wallet events go to the webhooks of the object's identity. The topic in the body is singular, the eventID a
   * string numbering the object's own events.
   */
  private wallet(topic: 'WithdrawalTopic' | 'DestinationTopic', owner: WalletOwner, eventType: string, objectID: string, eventID: string, content: () => object): void {
    const { state } = this.store;
    if (state.webhooks.wallet.size === 0) return;
    const { identityID, walletID } = owner;
    const scopeTopic = topic === 'WithdrawalTopic' ? 'WithdrawalsTopic' : 'DestinationsTopic';
    const targets = [...state.webhooks.wallet.values()].filter(
      (w) =>
        w.active &&
        w.identityID === identityID &&
        w.scope.topic === scopeTopic &&
        (w.scope.eventTypes as string[]).includes(eventType) &&
        (w.scope.topic !== 'WithdrawalsTopic' || w.scope.walletID === undefined || w.scope.walletID === walletID),
    );
    if (targets.length === 0) return;
    const body = JSON.stringify({ eventID, occuredAt: new Date().toISOString(), topic, eventType, ...content() });
    const objectKey = `${topic === 'WithdrawalTopic' ? 'withdrawal' : 'destination'}:${objectID}`;
    for (const w of targets) this.delivery.enqueue({ api: 'wallet', webhookID: w.id, url: w.url, topic, eventType, eventID, objectKey, objectID, body });
  }

  /** A withdrawal belongs to its wallet's identity. */
  private owner(walletID: string): WalletOwner {
    return { identityID: this.store.state.wallets.get(walletID)?.identity, walletID };
  }
}

function destinationRef(destination: Destination): object {
  return { destinationID: destination.id, ...(destination.externalID !== undefined ? { externalID: destination.externalID } : {}) };
}
