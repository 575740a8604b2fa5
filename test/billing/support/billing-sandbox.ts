import { randomUUID } from 'node:crypto';
import { SANDBOX_API_KEY, SANDBOX_SHOP_ID } from '../../../src/config/load-config';
import { SandboxHandle, startSandbox } from '../../../src/sandbox/sandbox-server';

/** What the invoice carried in `metadata` when the engine created it (see ChargeProcessorService.createInvoice). */
export interface LedgerInvoiceMetadata {
  subscriptionId?: string;
  chargeId?: string;
  periodStart?: string;
}

/** One payment as the sandbox's ledger shows it: the provider's own record of money taken. */
export interface LedgerPayment {
  invoiceID: string;
  paymentID: string;
  customerID: string;
  amount: number;
  currency: string;
  /** 'captured' = money taken. */
  status: string;
  externalID?: string;
  invoiceExternalID?: string;
  invoiceMetadata?: LedgerInvoiceMetadata;
}

export interface Ledger {
  payments: LedgerPayment[];
}

export type ProviderFaultOperation = 'createInvoice' | 'createPayment' | 'getPayment' | 'createInvoiceAccessToken';
export type ProviderFaultKind = 'unavailable' | 'timeout_after_effect' | 'reset_after_effect' | 'reset_before_effect' | 'latency';

export interface ProviderFault {
  operation?: ProviderFaultOperation;
  kind: ProviderFaultKind;
  probability?: number;
  latencyMs?: number;
  count?: number;
}

/** A fault rule as the sandbox reports it back, with how often it fired. */
export interface FaultRuleState extends ProviderFault {
  id: string;
  hits: number;
}

/** The sandbox as a test drives it: provider calls a merchant makes itself (card tokenization) and the control endpoints. */
export class BillingSandbox {
  constructor(readonly url: string) {}

  ledger(): Promise<Ledger> {
    return this.send('GET', '/sandbox/ledger') as Promise<Ledger>;
  }

  async fault(fault: ProviderFault): Promise<void> {
    await this.send('POST', '/sandbox/faults', fault);
  }

  /** The rules in force with their hit counts, or undefined when the sandbox does not list them. */
  async faults(): Promise<FaultRuleState[] | undefined> {
    const response = await fetch(`${this.url}/sandbox/faults`);
    if (!response.ok) return undefined;
    const body = (await response.json()) as unknown;
    if (Array.isArray(body)) return body as FaultRuleState[];
    const rules = (body as { rules?: unknown; items?: unknown; faults?: unknown }) ?? {};
    const list = rules.rules ?? rules.items ?? rules.faults;
    return Array.isArray(list) ? (list as FaultRuleState[]) : undefined;
  }

  /** The provider requests the sandbox logged for one operation (newest 2000), with their bodies. */
  requests(operation: ProviderFaultOperation): Promise<{ operation: string; body: unknown; status: number | null }[]> {
    return this.send('GET', `/sandbox/requests?operation=${operation}&limit=2000`) as Promise<{ operation: string; body: unknown; status: number | null }[]>;
  }

  async clearFaults(): Promise<void> {
    await this.send('DELETE', '/sandbox/faults');
  }

  /** Tokenizes a test card the way a merchant's own card form does, straight at the provider. */
  async tokenizeCard(cardNumber = '4242424242424242'): Promise<{ paymentToolToken: string; paymentSession: string }> {
    const response = await fetch(`${this.url}/v2/processing/payment-resources`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${SANDBOX_API_KEY}`,
        'X-Request-ID': randomUUID().replace(/-/g, ''),
        'Content-Type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({
        paymentTool: { paymentToolType: 'CardData', cardNumber, expDate: '12/30', cvv: '123', cardHolder: 'TEST USER' },
        clientInfo: { fingerprint: 'test' },
      }),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`tokenizing a card answered ${response.status}: ${text}`);
    const body = JSON.parse(text) as { paymentToolToken: string; paymentSession: string };
    return { paymentToolToken: body.paymentToolToken, paymentSession: body.paymentSession };
  }

  private async send(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox control ${method} ${path} answered ${response.status}: ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  }
}

/** Same fast timings as test/support/test-app.ts: bindings and payments settle within milliseconds. */
const FAST_DELAYS = { bindingMs: 5, paymentMs: 5, authorizeDestinationMs: 20, withdrawalMs: 10 };

/** A real sandbox on its own port, shared by every engine of a scenario (and by child processes over HTTP). */
export function startBillingSandbox(): Promise<SandboxHandle> {
  return startSandbox({ port: 0, apiKey: SANDBOX_API_KEY, shopId: SANDBOX_SHOP_ID, quiet: true, delays: FAST_DELAYS });
}
