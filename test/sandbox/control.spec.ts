import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Customer, Invoice } from '../../src/gateway/provider-api.types';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { waitFor } from '../support/wait';
import { SANDBOX_SUITE_DELAYS, useSandbox } from './support/sandbox-suite';

describe('sandbox: control API', () => {
  let sandbox: SandboxClient;
  useSandbox((started) => (sandbox = started));

  it('reset forgets state, faults, scripted outcomes and the request log', async () => {
    const customer = await sandbox.readyCustomer();
    await sandbox.control.scriptOutcomes(customer.id, ['authorization_failed:unknown']);
    await sandbox.control.addFault({ operation: 'getWallet', kind: 'unavailable' });
    const { invoice } = await sandbox.createInvoice();

    expect((await sandbox.control.send('POST', 'reset')).status).toBe(204);
    expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`)).status).toBe(404);
    expect((await sandbox.call('GET', `/v2/processing/invoices/${invoice.id}`)).status).toBe(404);
    expect((await sandbox.control.send('GET', 'faults')).data).toEqual([]);
    expect(await sandbox.control.ledger()).toEqual({ payments: [], refunds: [], bindingCharges: [], withdrawals: [] });
    // Only the two reads above since the reset.
    expect((await sandbox.control.send<unknown[]>('GET', 'requests')).data).toHaveLength(2);
  });

  it('reset cancels steps still pending, so they never touch the new state', async () => {
    await sandbox.control.setDelays({ bindingMs: 500 });
    try {
      const { customer } = await sandbox.createCustomer();
      await sandbox.startBinding(customer.id, CARDS.success);
      await sandbox.control.reset();
      // A binding started after the reset finishes after the cancelled one would have: once it is done, the old step
      // has had its time, whatever the machine's speed. Only the new binding's charge is in the ledger.
      const { customer: later } = await sandbox.createCustomer();
      const binding = await sandbox.startBinding(later.id, CARDS.success);
      expect((await sandbox.finalBinding(later.id, binding.id)).status).toBe('succeeded');
      expect((await sandbox.control.ledger()).bindingCharges).toEqual([expect.objectContaining({ customerID: later.id, bindingID: binding.id })]);
    } finally {
      await sandbox.control.setDelays({ bindingMs: SANDBOX_SUITE_DELAYS.bindingMs });
    }
  });

  it('reads and changes the delays at run time', async () => {
    const current = await sandbox.control.send<{ delays: Record<string, number> }>('GET', 'config');
    expect(current.data.delays).toEqual(SANDBOX_SUITE_DELAYS);
    const changed = await sandbox.control.send<{ delays: Record<string, number> }>('POST', 'config', { delays: { withdrawalMs: 42 } });
    expect(changed.status).toBe(200);
    expect(changed.data.delays).toEqual({ ...SANDBOX_SUITE_DELAYS, withdrawalMs: 42 });
    expect((await sandbox.control.send('POST', 'config', { delays: { withdrawalMs: -1 } })).status).toBe(400);
    expect((await sandbox.control.send('POST', 'config', { delays: { fooMs: 1 } })).status).toBe(400);
    await sandbox.control.setDelays(SANDBOX_SUITE_DELAYS);
  });

  it('expire-tokens expires the customer access tokens too', async () => {
    const { customer, customerAccessToken } = await sandbox.createCustomer();
    const token = customerAccessToken.payload;
    expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`, { token })).status).toBe(200);
    await sandbox.control.expireTokens();
    expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`, { token })).status).toBe(401);
    // The API key is not an access token and keeps working.
    expect((await sandbox.call('GET', `/v2/processing/customers/${customer.id}`)).status).toBe(200);
  });
});

describe('sandbox: lifecycle', () => {
  it('fails to start on a port that is taken, and close is idempotent', async () => {
    const first = await SandboxClient.start();
    const port = Number(new URL(first.url).port);
    await expect(SandboxClient.start({ port })).rejects.toThrow(/EADDRINUSE/);
    await first.close();
    await first.close();
  });
});

describe('sandbox: state file persistence', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    file = join(dir, 'sandbox-state.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps customers, bindings, invoices and tokens across a restart, and never writes card data', async () => {
    const first = await SandboxClient.start({ stateFile: file });
    const customer = await first.readyCustomer(CARDS.secondSuccess);
    const { invoice, invoiceAccessToken } = await first.createInvoice({ externalID: 'inv-persist' });
    const identity = await first.createIdentity();
    await first.close();

    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(CARDS.secondSuccess);
    expect(text).toContain(customer.id);

    const second = await SandboxClient.start({ stateFile: file });
    try {
      expect((await second.call<Customer>('GET', `/v2/processing/customers/${customer.id}`)).data.status).toBe('ready');
      expect((await second.call<Invoice>('GET', `/v2/processing/invoices/${invoice.id}`)).data.status).toBe('unpaid');
      const pay = await second.pay(invoice.id, invoiceAccessToken.payload, customer.id);
      expect(pay.status).toBe(201);
      expect(pay.data.payer).toMatchObject({ paymentToolDetails: { lastDigits: '4444' } });
      expect((await second.finalPayment(invoice.id, '1')).status).toBe('captured');
      // Sequences continue rather than restart.
      expect((await second.createIdentity()).id).toBe(String(Number(identity.id) + 1));
    } finally {
      await second.close();
    }
  });

  it('finishes a binding that was still pending when the sandbox stopped', async () => {
    const first = await SandboxClient.start({ stateFile: file, delays: { ...SANDBOX_SUITE_DELAYS, bindingMs: 60_000 } });
    const { customer } = await first.createCustomer();
    const binding = await first.startBinding(customer.id, CARDS.success);
    await first.close();

    const second = await SandboxClient.start({ stateFile: file });
    try {
      const final = await second.finalBinding(customer.id, binding.id);
      expect(final.status).toBe('succeeded');
      expect((await second.getCustomer(customer.id)).status).toBe('ready');
    } finally {
      await second.close();
    }
  });

  it('saves changes while running, without waiting for close', async () => {
    const running = await SandboxClient.start({ stateFile: file });
    try {
      const { customer } = await running.createCustomer();
      const saved = await waitFor(
        async () => (existsSync(file) ? readFileSync(file, 'utf8') : ''),
        (text) => text.includes(customer.id),
        { everyMs: 5 },
      );
      expect(saved).toContain(customer.id);
    } finally {
      await running.close();
    }
  });

  it('creates the directory of the state file when it does not exist yet', async () => {
    const nested = join(dir, 'data', 'deeper', 'state.json');
    const sandbox = await SandboxClient.start({ stateFile: nested });
    await sandbox.createCustomer();
    await sandbox.close();
    expect(existsSync(nested)).toBe(true);
  });

  it('starts empty and keeps the unreadable file aside when the state file is corrupt', async () => {
    writeFileSync(file, '{not json');
    const sandbox = await SandboxClient.start({ stateFile: file });
    try {
      expect((await sandbox.control.ledger()).payments).toEqual([]);
      expect(readdirSync(dir).some((name) => name.startsWith('sandbox-state.json.corrupt-'))).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
