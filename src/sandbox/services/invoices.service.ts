import { Injectable } from '@nestjs/common';
import type { Invoice, InvoiceChange, InvoiceLine, InvoiceLineTaxRate } from '../../gateway/provider-api.types';
import type { Credential } from '../http/credential';
import { BodyReader } from '../http/body-reader';
import { ProviderError } from '../http/provider-error';
import { created, ok, ProviderReply } from '../http/provider-reply';
import { queryInteger, QueryParams, queryString } from '../http/query-params';
import { SandboxConfig } from '../sandbox-config';
import { pageAfter } from '../state/event-paging';
import { uniqueSnowflake } from '../state/ids';
import type { InvoiceRecord } from '../state/sandbox-records';
import { SandboxStateService } from '../state/sandbox-state.service';
import { AccessTokensService } from './access-tokens.service';
import { IdempotencyService } from './idempotency.service';
import { invoiceEventsView } from './payment-views';
import { WebhookEventsService } from './webhook-events.service';

/**
 * The VAT rates the provider's receipts know: the ones in force since 2026-01-01 (22 %, and 5 % and 7 % for the
 * simplified regime, each with its inclusive fraction) and the former ones older invoices carry.
 */
const TAX_RATES: readonly InvoiceLineTaxRate[] = ['0%', '5%', '7%', '10%', '18%', '20%', '22%', '5/105', '7/107', '10/110', '18/118', '20/120', '22/122'];
const MAX_CART_LINES = 100;
/** RFC 3339 date-time, the provider's only date format. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Invoices, their access tokens and event streams. Payments live in PaymentsService. */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
    private readonly tokens: AccessTokensService,
    private readonly idempotency: IdempotencyService,
    private readonly webhookEvents: WebhookEventsService,
  ) {}

  /** Operation 5. */
  create(body: unknown): ProviderReply {
    const params = BodyReader.root(body, 'InvoiceParams');
    const shopID = params.requireString('shopID', { min: 1, max: 40 });
    const dueDate = params.requireString('dueDate', { pattern: DATE_TIME });
    if (Number.isNaN(Date.parse(dueDate))) throw params.violation('dueDate', 'must be an RFC 3339 date-time');
    const currency = params.requireString('currency', { pattern: /^[A-Z]{3}$/ });
    const product = params.requireString('product', { max: 100 });
    const description = params.optionalString('description', { max: 1000 });
    const metadata = params.requireRecord('metadata');
    const amount = params.optionalInteger('amount', { min: 1 });
    const externalID = params.optionalString('externalID', { min: 1, max: 40 });
    const lines = params.optionalObjectArray('cart')?.map(readCartLine);

    if (lines && (lines.length < 1 || lines.length > MAX_CART_LINES)) throw ProviderError.capi400('invalidInvoiceCart', 'Wrong size. Path to item: cart');
    const cartSum = lines?.reduce((sum, line) => sum + line.price * line.quantity, 0);
    // As CAPI: the amount defaults to the cart's sum; both given must agree; neither is an error.
    if ((amount === undefined && cartSum === undefined) || (amount !== undefined && cartSum !== undefined && amount !== cartSum)) {
      throw ProviderError.capi400('invalidInvoiceCost', 'Invalid invoice amount');
    }
    const total = amount ?? (cartSum as number);
    if (!Number.isSafeInteger(total)) throw ProviderError.capi400('invalidInvoiceCost', 'Invalid invoice amount');

    const features = { shopID, amount, currency, product, dueDate, cart: lines };
    const existingID = this.idempotency.existing('createInvoice', externalID, features);
    const existing = existingID !== undefined ? this.store.state.invoices.get(existingID) : undefined;
    if (existing) {
      this.refresh(existing);
      return created({ invoice: existing.invoice, invoiceAccessToken: { payload: this.tokens.issue('invoice', existing.invoice.id) } });
    }

    if (this.config.shopId !== undefined && shopID !== this.config.shopId) throw ProviderError.capi400('invalidShopID', 'Shop not found');
    if (Date.parse(dueDate) <= Date.now()) throw ProviderError.capi400('invalidRequest', 'Invalid due date');

    const id = uniqueSnowflake(this.store.state.invoices);
    const invoice: Invoice = {
      id,
      shopID,
      createdAt: new Date().toISOString(),
      dueDate,
      amount: total,
      currency,
      product,
      ...(description !== undefined ? { description } : {}),
      ...(lines ? { cart: lines.map((line) => ({ ...line, cost: line.price * line.quantity })) } : {}),
      metadata,
      ...(externalID !== undefined ? { externalID } : {}),
      status: 'unpaid',
    };
    const record: InvoiceRecord = { invoice, events: [], payments: [] };
    this.store.state.invoices.set(id, record);
    this.emit(record, [{ changeType: 'InvoiceCreated', invoice: structuredClone(invoice) }]);
    this.webhookEvents.invoice(record, 'InvoiceCreated');
    this.idempotency.remember('createInvoice', externalID, features, id);
    return created({ invoice, invoiceAccessToken: { payload: this.tokens.issue('invoice', id) } });
  }

  /** GET /v2/processing/invoices/{id}. */
  get(invoiceID: string): ProviderReply {
    return ok(this.require(invoiceID).invoice);
  }

  /** GET /v2/processing/invoices?externalID=: the invoice made under this externalID (getInvoiceByExternalID). */
  findByExternalId(query: QueryParams): ProviderReply {
    const externalID = queryString(query, 'externalID', { required: true, min: 1, max: 40 });
    const id = this.idempotency.idOf('createInvoice', externalID);
    if (id === undefined) throw ProviderError.capi404('Invoice not found');
    return ok(this.require(id).invoice);
  }

  /** POST /v2/processing/invoices/{id}/access-tokens: renews the token operation 6 needs. */
  createAccessToken(invoiceID: string): ProviderReply {
    this.require(invoiceID);
    return created({ payload: this.tokens.issue('invoice', invoiceID) });
  }

  /** GET /v2/processing/invoices/{id}/events. */
  events(invoiceID: string, query: QueryParams, credential: Credential): ProviderReply {
    const limit = queryInteger(query, 'limit', { required: true, min: 1 });
    const eventID = queryInteger(query, 'eventID');
    const record = this.require(invoiceID);
    const page = pageAfter(record.events, eventID, limit);
    if (!page) throw ProviderError.capi404('Event not found');
    return ok(invoiceEventsView(page, credential));
  }

  /** The invoice, brought up to date (an overdue one is cancelled first); 404 when unknown. */
  require(invoiceID: string): InvoiceRecord {
    const record = this.store.state.invoices.get(invoiceID);
    if (!record) throw ProviderError.capi404('Invoice not found');
    this.refresh(record);
    return record;
  }

  /**
   * The provider cancels an unpaid invoice once its due date passes (reason "overdue"); the sandbox does it
   * when the invoice is next looked at, which no client can tell apart. A payment in flight holds it off.
   */
  refresh(record: InvoiceRecord): void {
    const { invoice } = record;
    if (invoice.status !== 'unpaid' || Date.parse(invoice.dueDate) > Date.now()) return;
    if (record.payments.some((p) => p.payment.status === 'pending' || p.payment.status === 'processed')) return;
    invoice.status = 'cancelled';
    invoice.reason = 'overdue';
    // CAPI's event decoder drops the reason.
    this.emit(record, [{ changeType: 'InvoiceStatusChanged', status: 'cancelled' }]);
    this.webhookEvents.invoice(record, 'InvoiceCancelled');
    this.store.changed();
  }

  emit(record: InvoiceRecord, changes: InvoiceChange[]): void {
    record.events.push({ id: record.events.length + 1, createdAt: new Date().toISOString(), changes });
  }
}

/** One cart line of a request body (an invoice's, or the cart a refund leaves paid). */
export function readCartLine(line: BodyReader): InvoiceLine {
  const taxMode = line.optionalObject('taxMode');
  return {
    product: line.requireString('product', { max: 1000 }),
    quantity: line.optionalInteger('quantity', { min: 1 }) ?? 1,
    price: line.requireInteger('price', { min: 1 }),
    ...(taxMode
      ? {
          taxMode: {
            type: taxMode.requireString('type', { oneOf: ['InvoiceLineTaxVAT'] }) as 'InvoiceLineTaxVAT',
            rate: taxMode.requireString('rate', { oneOf: TAX_RATES }) as InvoiceLineTaxRate,
          },
        }
      : {}),
  };
}
