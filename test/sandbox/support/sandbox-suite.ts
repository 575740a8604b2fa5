import type { CustomerEvent, Invoice, InvoiceEvent } from '../../../src/gateway/provider-api.types';
import type { SandboxOptions } from '../../../src/sandbox/sandbox-server';
import { FAST_SANDBOX_DELAYS, SandboxClient } from '../../support/sandbox-client';

/**
 * The sandbox's own suites: fast steps, and a 3-D Secure check that waits for its payer as long as a busy machine may
 * take to play one. A test that wants to see the wait end shortens it with `withThreeDsWait`.
 */
export const SANDBOX_SUITE_DELAYS = { ...FAST_SANDBOX_DELAYS, threeDsTimeoutMs: 60_000 };

/** Runs `body` with 3-D Secure checks started meanwhile failing after `ms` unconfirmed (a run-time setting), then restores the suite's wait. */
export async function withThreeDsWait<T>(sandbox: SandboxClient, ms: number, body: () => Promise<T>): Promise<T> {
  await sandbox.control.setDelays({ threeDsTimeoutMs: ms });
  try {
    return await body();
  } finally {
    await sandbox.control.setDelays({ threeDsTimeoutMs: SANDBOX_SUITE_DELAYS.threeDsTimeoutMs });
  }
}

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
