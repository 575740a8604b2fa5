import type { CustomerEvent, Invoice, InvoiceEvent } from '../../../src/gateway/provider-api.types';
import type { SandboxOptions } from '../../../src/sandbox/sandbox-server';
import { FAST_SANDBOX_DELAYS, SandboxClient } from '../../support/sandbox-client';

/** The sandbox's own suites: fast steps, and a 3-D Secure check nobody confirms fails after a second, so that can be seen. */
export const SANDBOX_SUITE_DELAYS = { ...FAST_SANDBOX_DELAYS, threeDsTimeoutMs: 1000 };

/**
 * Registers the hooks of a sandbox suite: one sandbox for the file (with SANDBOX_SUITE_DELAYS and these options),
 * reset before each test; `onStart` hands it over.
 */
export function useSandbox(onStart: (sandbox: SandboxClient) => void, options: Partial<SandboxOptions> = {}): void {
  let sandbox: SandboxClient;
  beforeAll(async () => {
    sandbox = await SandboxClient.start({ delays: SANDBOX_SUITE_DELAYS, ...options });
    onStart(sandbox);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => sandbox.control.reset());
}

export async function readInvoice(sandbox: SandboxClient, invoiceID: string): Promise<Invoice> {
  return (await sandbox.call<Invoice>('GET', `/v2/processing/invoices/${invoiceID}`)).data;
}

export async function readInvoiceEvents(sandbox: SandboxClient, invoiceID: string, query = 'limit=100'): Promise<InvoiceEvent[]> {
  const res = await sandbox.call<InvoiceEvent[]>('GET', `/v2/processing/invoices/${invoiceID}/events?${query}`);
  expect(res.status).toBe(200);
  return res.data;
}

export async function readCustomerEvents(sandbox: SandboxClient, customerID: string, query = 'limit=100'): Promise<CustomerEvent[]> {
  const res = await sandbox.call<CustomerEvent[]>('GET', `/v2/processing/customers/${customerID}/events?${query}`);
  expect(res.status).toBe(200);
  return res.data;
}
