import type { CustomerEvent, Invoice, InvoiceEvent } from '../../../src/gateway/provider-api.types';
import { SandboxClient } from '../../support/sandbox-client';

/** Registers the hooks of a sandbox suite: one sandbox for the file, reset before each test; `onStart` hands it over. */
export function useSandbox(onStart: (sandbox: SandboxClient) => void): void {
  let sandbox: SandboxClient;
  beforeAll(async () => {
    sandbox = await SandboxClient.start();
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
