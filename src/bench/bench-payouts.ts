import type { NestExpressApplication } from '@nestjs/platform-express';
import { PayoutDestinationsService } from '../payouts/payout-destinations.service';
import { PayoutProcessorService } from '../payouts/payout-processor.service';
import { PayoutSetupService } from '../payouts/payout-setup.service';
import { PayoutsService } from '../payouts/payouts.service';

const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

/** One batch of payouts to an authorized destination, worked until every payout is final. */
export async function benchPayouts(app: NestExpressApplication, count: number, statements: { count: number }): Promise<void> {
  await app.get(PayoutSetupService).setUp({ identityName: 'Bench', provider: 'test', class: 'person', walletName: 'Bench', currency: 'RUB' });
  const destinations = app.get(PayoutDestinationsService);
  const destination = await destinations.create({ name: 'Bench card', currency: 'RUB', card: { cardNumber: '4242424242424242', expDate: '12/30', cardHolder: 'BENCH' } });
  for (let i = 0; (await destinations.get(destination.id)).status !== 'Authorized'; i++) {
    if (i > 500) throw new Error('the bench destination was not authorized');
    await destinations.followDue();
    await new Promise((r) => setTimeout(r, 10));
  }
  const items = Array.from({ length: count }, () => ({ destinationId: destination.id, amount: 5000, currency: 'RUB' }));
  const accepted = process.hrtime.bigint();
  const batch = await app.get(PayoutsService).createBatch(items);
  const started = process.hrtime.bigint();
  const statementsBefore = statements.count;
  const processor = app.get(PayoutProcessorService);
  let settled = 0;
  for (let idle = 0; settled < count && idle < 1000; ) {
    const run = await processor.runOnce();
    settled += run.succeeded + run.failed;
    idle = run.steps === 0 ? idle + 1 : 0;
    if (run.steps === 0) await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const counts = (await app.get(PayoutsService).getBatch(batch.batch.id)).counts;
  console.log(
    `payouts: ${count} accepted in ${(Number(started - accepted) / 1e9).toFixed(2)} s, settled in ${seconds.toFixed(2)} s = ` +
      `${(settled / seconds).toFixed(1)} payouts/s, ${((statements.count - statementsBefore) / count).toFixed(1)} statements/payout (${JSON.stringify(counts)}; rss ${mb(process.memoryUsage().rss)} MB)`,
  );
}
