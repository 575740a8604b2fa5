import type { ProviderOperation } from '../../../src/gateway/provider-operation';

/** One request as the sandbox logged it. */
export interface LoggedRequest {
  operation: ProviderOperation;
  method: string;
  path: string;
  headers: { authorization?: string; 'content-type'?: string; 'x-request-id'?: string; 'cache-control'?: string };
  body: unknown;
  status: number | null;
}

export interface LedgerPayment {
  invoiceID: string;
  paymentID: string;
  customerID: string;
  amount: number;
  currency: string;
  status: string;
  externalID?: string;
}

export interface LedgerWithdrawal {
  withdrawalID: string;
  status: string;
  externalID?: string;
  failure?: unknown;
}

export interface Ledger {
  payments: LedgerPayment[];
  bindingCharges: unknown[];
  withdrawals: LedgerWithdrawal[];
}

export type FaultKind = 'latency' | 'unavailable' | 'timeout_after_effect' | 'reset_after_effect' | 'reset_before_effect';

export interface Fault {
  operation?: ProviderOperation;
  kind: FaultKind;
  latencyMs?: number;
  count?: number;
  probability?: number;
}

/** The sandbox's unauthenticated control endpoints (reset, ledger, faults, request log, scripted outcomes). */
export class SandboxControl {
  constructor(private readonly url: string) {}

  async reset(): Promise<void> {
    await this.send('POST', '/sandbox/reset');
  }

  ledger(): Promise<Ledger> {
    return this.send('GET', '/sandbox/ledger') as Promise<Ledger>;
  }

  async fault(fault: Fault): Promise<void> {
    await this.send('POST', '/sandbox/faults', fault);
  }

  async clearFaults(): Promise<void> {
    await this.send('DELETE', '/sandbox/faults');
  }

  requests(operation?: ProviderOperation): Promise<LoggedRequest[]> {
    const query = new URLSearchParams({ limit: '1000' });
    if (operation) query.set('operation', operation);
    return this.send('GET', `/sandbox/requests?${query.toString()}`) as Promise<LoggedRequest[]>;
  }

  async outcomes(customerID: string, outcomes: string[]): Promise<void> {
    await this.send('POST', '/sandbox/outcomes', { customerID, outcomes });
  }

  async expireTokens(): Promise<void> {
    await this.send('POST', '/sandbox/expire-tokens');
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
