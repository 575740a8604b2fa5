import { PostgresFaultProxy } from '../support/postgres-fault-proxy';
import { startTestApp, TestApp } from '../support/test-app';
import { CARDS } from '../support/test-cards';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';
import { createCustomer, listBindings } from './customer-test-helpers';

/**
 * A card binding started with an Idempotency-Key whose answer could not be stored (the connection that writes it
 * is cut, through a proxy between the daemon and PostgreSQL): the binding exists at the provider, so the repeat the
 * answer asks for must answer that binding, not start a second one (and a second test charge on the card).
 */
describe('a card binding whose answer was lost', () => {
  let proxy: PostgresFaultProxy;
  let t: TestApp;

  beforeAll(async () => {
    await resetDatabase();
    proxy = await PostgresFaultProxy.start(testDatabaseUrl());
    t = await startTestApp({ databaseUrl: proxy.urlFor(testDatabaseUrl()) });
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('answers outcome_unknown, and the repeat with the same key answers the same binding: one binding at the provider', async () => {
    const customer = await createCustomer(t);
    const tool = await t.sandboxClient.tokenize(CARDS.success);
    const body = { paymentToolToken: tool.paymentToolToken, paymentSession: tool.paymentSession };
    const bind = () => t.api().post(`/api/v1/customers/${customer.id}/bindings`).set('Idempotency-Key', 'bind-lost-1').send(body);

    const cut = proxy.cutBefore(/^UPDATE idempotency_records SET status_code/);
    const first = await bind();
    await cut;
    expect([first.status, first.body.code]).toEqual([503, 'outcome_unknown']);

    const again = await bind();
    expect([again.status, again.body]).toEqual([202, { id: expect.any(String), status: 'pending' }]);
    const atProvider = await t.sandboxClient.bindings(customer.providerCustomerId);
    expect(atProvider.map((b) => b.externalID)).toEqual([`b${again.body.id.replace(/-/g, '')}`]);
    expect((await listBindings(t, customer.id)).map((b) => b.id)).toEqual([again.body.id]);
    // The answer is stored now: another repeat replays it.
    expect((await bind()).body).toEqual(again.body);
  });

  it('sends the binding a first run recorded but never sent (its commit answer lost) once the key is repeated: one binding, with the reserved id', async () => {
    const customer = await createCustomer(t);
    const tool = await t.sandboxClient.tokenize(CARDS.success);
    const body = { paymentToolToken: tool.paymentToolToken, paymentSession: tool.paymentSession };
    const bind = () => t.api().post(`/api/v1/customers/${customer.id}/bindings`).set('Idempotency-Key', 'bind-lost-2').send(body);

    // The intent's transaction commits; its answer is lost, so the first run ends before calling the provider.
    const lost = proxy.loseAnswerOf(/^COMMIT/);
    const first = await bind();
    await lost;
    expect([first.status, first.body.code]).toEqual([503, 'outcome_unknown']);
    expect(await t.sandboxClient.bindings(customer.providerCustomerId)).toEqual([]);

    const again = await bind();
    expect(again.status).toBe(202);
    const atProvider = await t.sandboxClient.bindings(customer.providerCustomerId);
    expect(atProvider.map((b) => b.externalID)).toEqual([`b${again.body.id.replace(/-/g, '')}`]);
    expect((await listBindings(t, customer.id)).map((b) => b.id)).toEqual([again.body.id]);
  });
});
