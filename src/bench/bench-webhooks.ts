import { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Server } from 'node:http';
import { createApp } from '../app.factory';
import { ProviderWebhookRegistrationService } from '../provider-webhooks/provider-webhook-registration.service';
import { BenchSandbox } from './bench-sandbox';

type App = Awaited<ReturnType<typeof createApp>>;

export interface WebhookPass {
  charges: number;
  seconds: number;
  paymentReads: number;
}

/** A payment settles in 2 s: processed 1.5 s after its creation, captured 0.5 s after that (issue 17's webhook run). */
const PAYMENT_MS = 1_500;
const CAPTURE_MS = 500;

/**
 * Payment reads per charge with a provider that takes 2 s to settle, by a scheduling daemon that polls only and by
 * one whose invoice webhooks are registered at the provider and flowing (target: at most 1.5 while they flow).
 * `start(scheduler)` starts a daemon at concurrency 16; `pass(app, count)` runs one measured billing pass.
 */
export async function benchWebhooks(
  sandbox: BenchSandbox,
  count: number,
  start: () => Promise<App>,
  pass: (app: App, count: number) => Promise<WebhookPass>,
): Promise<void> {
  await sandbox.setSettleDelays(PAYMENT_MS, CAPTURE_MS);
  try {
    for (const webhooks of [false, true]) {
      const app = await start();
      try {
        if (webhooks) await hearWebhooks(app);
        const first = await pass(app, count);
        // The second pass runs with events already flowing (the first one's captures warmed the switch, if any).
        const second = await pass(app, count);
        for (const [label, result] of [
          ['first pass', first],
          ['second pass', second],
        ] as const) {
          console.log(
            `webhooks ${webhooks ? 'flowing' : 'off    '} (${label}): ${count} charges settling in ${PAYMENT_MS + CAPTURE_MS} ms, ` +
              `${(result.paymentReads / result.charges).toFixed(2)} payment reads/charge (target <= 1.5 while events flow), ` +
              `${(result.charges / result.seconds).toFixed(1)} charges/s | load ${loadavg()[0].toFixed(1)}`,
          );
        }
      } finally {
        await app.close();
      }
    }
  } finally {
    await sandbox.setSettleDelays(10, 10);
  }
}

/** Listens, registers the daemon's webhooks at the provider, and waits until they are active. */
async function hearWebhooks(app: App): Promise<void> {
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${((app.getHttpServer() as Server).address() as AddressInfo).port}`;
  const registration = app.get(ProviderWebhookRegistrationService);
  await registration.start(url);
  const target = `${url}/webhooks/provider`;
  for (let tries = 0; ; tries++) {
    const ours = (await registration.list()).filter((r) => r.url === target);
    if (ours.length === 2 && ours.every((r) => r.status === 'active')) return;
    if (tries > 600) throw new Error('the provider webhooks were not registered within a minute');
    await new Promise((r) => setTimeout(r, 100));
  }
}
