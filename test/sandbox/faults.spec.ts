import type { Identity, Wallet } from '../../src/gateway/provider-api.types';
import { SANDBOX_SHOP_ID } from '../../src/config/load-config';
import { SandboxClient } from '../support/sandbox-client';
import { CARDS } from '../support/test-cards';
import { useSandbox } from './support/sandbox-suite';

interface FaultView {
  id: string;
  operation?: string;
  kind: string;
  remaining: number | null;
  hits: number;
  probability: number;
}

describe('sandbox: injected faults', () => {
  let sandbox: SandboxClient;
  let identity: Identity;
  let wallet: Wallet;
  let destinationID: string;
  useSandbox((started) => (sandbox = started));
  beforeEach(async () => {
    identity = await sandbox.createIdentity();
    wallet = await sandbox.createWallet(identity.id);
    destinationID = (await sandbox.authorizedDestination(identity.id, CARDS.success)).id;
  });

  const withdrawalBody = (externalID: string) => ({ wallet: wallet.id, destination: destinationID, body: { amount: 700, currency: 'RUB' }, externalID });

  it('unavailable: 503 with an empty body and nothing done', async () => {
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'unavailable' });
    const res = await sandbox.call('POST', '/wallet/v0/withdrawals', { body: withdrawalBody('w-1') });
    expect(res.status).toBe(503);
    expect(res.data).toBe('');
    expect((await sandbox.control.ledger()).withdrawals).toEqual([]);
  });

  it('timeout_after_effect: the withdrawal is made, the client gets 504, a retry finds it', async () => {
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'timeout_after_effect', count: 1 });
    const res = await sandbox.call('POST', '/wallet/v0/withdrawals', { body: withdrawalBody('w-2') });
    expect(res.status).toBe(504);
    expect(res.data).toBe('');
    const ledger = await sandbox.control.ledger();
    expect(ledger.withdrawals).toEqual([expect.objectContaining({ externalID: 'w-2', amount: 700 })]);
    const retry = await sandbox.call<{ id: string }>('POST', '/wallet/v0/withdrawals', { body: withdrawalBody('w-2') });
    expect(retry.status).toBe(202);
    expect(retry.data.id).toBe(ledger.withdrawals[0].withdrawalID);
    expect((await sandbox.control.ledger()).withdrawals).toHaveLength(1);
  });

  it('reset_before_effect: the connection is destroyed and nothing is done', async () => {
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'reset_before_effect' });
    const outcome = await sandbox.rawCall('POST', '/wallet/v0/withdrawals', withdrawalBody('w-3'));
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNRESET|socket hang up/);
    expect((await sandbox.control.ledger()).withdrawals).toEqual([]);
  });

  it('reset_after_effect: the connection is destroyed after the withdrawal was made', async () => {
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'reset_after_effect' });
    const outcome = await sandbox.rawCall('POST', '/wallet/v0/withdrawals', withdrawalBody('w-4'));
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNRESET|socket hang up/);
    expect((await sandbox.control.ledger()).withdrawals).toEqual([expect.objectContaining({ externalID: 'w-4' })]);
    const logged = await sandbox.control.send<{ status: number | null; fault?: string }[]>('GET', 'requests?operation=createWithdrawal');
    expect(logged.data.at(-1)).toMatchObject({ status: null, fault: 'reset_after_effect' });
  });

  it('latency: the answer comes no sooner than latencyMs, and only for the operation of the rule', async () => {
    await sandbox.control.addFault({ operation: 'getWallet', kind: 'latency', latencyMs: 150 });
    const started = Date.now();
    const res = await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`);
    expect(res.status).toBe(200);
    // A timer never fires early: a lower bound holds on any machine.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // Another operation is not delayed: the rule did not match it (how fast it came back says nothing on a busy machine).
    expect((await sandbox.call('GET', `/wallet/v0/identities/${identity.id}`)).status).toBe(200);
    const rules = (await sandbox.control.send<FaultView[]>('GET', 'faults')).data;
    expect(rules).toEqual([expect.objectContaining({ operation: 'getWallet', kind: 'latency', hits: 1 })]);
  });

  it('latency combines with a terminal fault: delay, then the effect, then 504', async () => {
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'latency', latencyMs: 100 });
    await sandbox.control.addFault({ operation: 'createWithdrawal', kind: 'timeout_after_effect' });
    const started = Date.now();
    const res = await sandbox.call('POST', '/wallet/v0/withdrawals', { body: withdrawalBody('w-5') });
    expect(res.status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect((await sandbox.control.ledger()).withdrawals).toHaveLength(1);
  });

  it('count limits a rule to that many matching requests and the listing shows what is left', async () => {
    await sandbox.control.addFault({ operation: 'getWallet', kind: 'unavailable', count: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`)).status);
    expect(statuses).toEqual([503, 503, 200]);
    const rules = (await sandbox.control.send<FaultView[]>('GET', 'faults')).data;
    expect(rules).toEqual([{ id: expect.any(String), operation: 'getWallet', kind: 'unavailable', remaining: 0, hits: 2, probability: 1 }]);
  });

  it('applies a rule only to its operation; a rule without one matches every provider operation', async () => {
    await sandbox.control.addFault({ operation: 'createInvoice', kind: 'unavailable' });
    expect((await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`)).status).toBe(200);
    expect((await sandbox.call('POST', '/v2/processing/customers', { body: { shopID: SANDBOX_SHOP_ID, contactInfo: {}, metadata: {} } })).status).toBe(201);
    await sandbox.control.addFault({ kind: 'unavailable', count: 2 });
    expect((await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`)).status).toBe(503);
    expect((await sandbox.call('POST', '/v2/processing/customers', { body: { shopID: SANDBOX_SHOP_ID, contactInfo: {}, metadata: {} } })).status).toBe(503);
    // Control endpoints are never faulted.
    expect((await sandbox.control.send('GET', 'ledger')).status).toBe(200);
  });

  it('probability 0 never fires and probability 1 always does', async () => {
    await sandbox.control.addFault({ operation: 'getWallet', kind: 'unavailable', probability: 0 });
    for (let i = 0; i < 5; i++) expect((await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`)).status).toBe(200);
    await sandbox.control.addFault({ operation: 'getIdentity', kind: 'unavailable', probability: 1 });
    expect((await sandbox.call('GET', `/wallet/v0/identities/${identity.id}`)).status).toBe(503);
  });

  it('DELETE /sandbox/faults clears every rule', async () => {
    await sandbox.control.addFault({ kind: 'unavailable' });
    expect((await sandbox.control.send('DELETE', 'faults')).status).toBe(204);
    expect((await sandbox.control.send('GET', 'faults')).data).toEqual([]);
    expect((await sandbox.call('GET', `/wallet/v0/wallets/${wallet.id}`)).status).toBe(200);
  });

  it.each([
    [{ kind: 'explode' }],
    [{ kind: 'latency' }],
    [{ kind: 'unavailable', operation: 'noSuchOperation' }],
    [{ kind: 'unavailable', count: 0 }],
    [{ kind: 'unavailable', probability: 1.5 }],
  ])('rejects the rule %j with 400', async (rule) => {
    expect((await sandbox.control.send('POST', 'faults', rule)).status).toBe(400);
  });
});
