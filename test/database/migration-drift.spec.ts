import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/test-app';

/** The schema the migrations made is exactly the one the entities the app's modules register describe. */
describe('schema migrations', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get(DataSource);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('are all applied by the migration runner', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('describe exactly the entities the modules register: no drift (generate a migration when this fails)', async () => {
    expect(dataSource.entityMetadatas.map((m) => m.tableName).sort()).toEqual([
      'api_keys', 'balance_entries', 'charge_attempts', 'charges', 'console_sessions', 'coupon_redemptions', 'coupons', 'customer_bindings', 'customers', 'events', 'idempotency_records', 'payout_batches', 'payout_destinations', 'payout_setup',
      'payouts', 'pending_items', 'plan_migrations', 'plans', 'provider_events', 'provider_webhooks', 'rate_limit_buckets', 'recovery_links', 'refunds', 'subscription_events', 'subscription_notices', 'subscriptions', 'test_clock', 'webhook_attempts', 'webhook_deliveries',
      'webhook_endpoints', 'workers',
    ]);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    const statements = pending.upQueries.map((q) => q.query);
    expect(statements).toEqual([]);
  });
});
