import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { chargeWorkersFor } from '../billing/billing-tuning';
import { meterHttpTo } from './calls-in-flight';
import { LoopLag } from './loop-lag';

/**
 * The floor the benchmark compares the daemon with: the same provider calls per renewal (invoice with its cart,
 * CustomerPayer payment with the invoice access token, reads of the payment until it is final, on the daemon's
 * polling schedule), at the same concurrency, over keep-alive HTTP with the daemon's HTTP client library (undici's
 * pool, as its documentation shows it), in its own process, with no database and no engine. Run by bench.main.ts as a
 * child process; prints one JSON line.
 *
 * A floor must never be slower than the daemon, so it does nothing the daemon does not: as many renewals under way
 * as the daemon has charge workers for the same provider slots (a quarter more than slots: a renewal waiting to read
 * its payment again holds no slot, and another's call takes it), and the daemon's exact polling schedule (a read
 * after 5 ms, then after 5, 10, 20 ms…). With one renewal per slot and reads after 5, 15, 35 ms it kept half its
 * slots idle at 0 ms latency and read a payment captured after 20 ms 15 ms later than the daemon did.
 *
 *   node dist/bench/bare-client.main.js <sandboxUrl> <apiKey> <shopId> <renewals> <concurrency> <customerIds,...>
 */
interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function main(): Promise<void> {
  const [baseUrl, apiKey, shopId, renewalsText, concurrencyText, customersText] = process.argv.slice(2);
  const renewals = Number(renewalsText);
  const concurrency = Number(concurrencyText);
  const customers = customersText.split(',');
  const pool = new Pool(baseUrl, { connections: concurrency, pipelining: 1 });

  // Metered as the daemon's calls are (undici's request events): a call waiting in the pool for a connection is not in flight.
  const meter = meterHttpTo(Number(new URL(baseUrl).port));
  const call = async (method: 'GET' | 'POST', path: string, credential: string, body?: unknown): Promise<Reply> => {
    const res = await pool.request({
      method,
      path,
      headers: {
        Authorization: `Bearer ${credential}`,
        'Content-Type': 'application/json; charset=utf-8',
        'X-Request-ID': randomBytes(12).toString('base64url'),
        'Cache-Control': 'no-cache',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const run = randomBytes(4).toString('hex');

  const renew = async (n: number): Promise<void> => {
    const created = await call('POST', '/v2/processing/invoices', apiKey, {
      shopID: shopId,
      dueDate: new Date(Date.now() + 60 * 86_400_000).toISOString(),
      amount: 150000,
      currency: 'RUB',
      product: 'Bench',
      cart: [
        { product: 'Seat', price: 50000, quantity: 2, taxMode: { type: 'InvoiceLineTaxVAT', rate: '22%' } },
        { product: 'Support', price: 50000, quantity: 1 },
      ],
      metadata: { bench: run, n },
      externalID: `bare${run}${n}`,
    });
    if (created.status !== 201) throw new Error(`createInvoice answered ${created.status}`);
    const invoice = created.body.invoice as { id: string };
    const token = (created.body.invoiceAccessToken as { payload: string }).payload;
    const paid = await call('POST', `/v1/processing/invoices/${invoice.id}/payments`, token, {
      flow: { type: 'PaymentFlowInstant' },
      payer: { payerType: 'CustomerPayer', customerID: customers[n % customers.length] },
      externalID: `barepay${run}${n}`,
      metadata: { n },
    });
    if (paid.status !== 201) throw new Error(`createPayment answered ${paid.status}`);
    const paymentId = paid.body.id as string;
    // The daemon's schedule (ChargeProcessorService.awaitPayment): a first read after 5 ms, the next after 5 ms
    // more, then doubling.
    let delay = 5;
    await sleep(delay);
    for (;;) {
      const read = await call('GET', `/v2/processing/invoices/${invoice.id}/payments/${paymentId}`, apiKey);
      const status = read.body.status as string;
      if (status === 'captured') return;
      if (status === 'failed' || status === 'cancelled') throw new Error(`payment ${status}`);
      await sleep(delay);
      delay = Math.min(delay * 2, 1000);
    }
  };

  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const lag = new LoopLag();
  meter.start();
  lag.start();
  await Promise.all(
    Array.from({ length: chargeWorkersFor(concurrency) }, async () => {
      while (next < renewals) await renew(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const metered = meter.read();
  const loopLag = lag.read();
  await pool.destroy();
  process.stdout.write(
    JSON.stringify({
      renewals,
      seconds,
      perSecond: renewals / seconds,
      cpuMsPerRenewal: (cpu.user + cpu.system) / 1000 / renewals,
      inFlight: metered.average,
      callsPerRenewal: metered.calls / renewals,
      readsPerRenewal: metered.paymentReads / renewals,
      firstCallMs: metered.firstCallMs,
      tailMs: metered.tailMs,
      inFlightByTenth: metered.byTenth,
      callMs: metered.callMs,
      loopLag,
    }) + '\n',
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
