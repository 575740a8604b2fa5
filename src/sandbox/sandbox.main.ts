import 'reflect-metadata';
import { startSandbox } from './sandbox-server';

/** `npm run sandbox`: the provider simulator on its own, for demos and for pointing PROVIDER_URL at. */
async function main(): Promise<void> {
  const port = Number(process.env.SANDBOX_PORT ?? 8081);
  const host = process.env.SANDBOX_HOST ?? '127.0.0.1';
  const apiKey = process.env.SANDBOX_API_KEY ?? 'sandbox-api-key';
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
    process.exit(78);
  }
  const sandbox = await startSandbox({ port, host, apiKey, stateFile: process.env.SANDBOX_STATE_FILE || undefined });
  console.log(`\n  *** PROVIDER SANDBOX listening on ${sandbox.url} ***`);
  console.log('  *** This is a SIMULATOR: NO REAL MONEY MOVES and no card is ever charged. ***\n');
  console.log(`  API key: ${process.env.SANDBOX_API_KEY ? 'the value of SANDBOX_API_KEY' : '"sandbox-api-key" (the default; set SANDBOX_API_KEY to change it)'}`);
  console.log(`  Controls: ${sandbox.url}/sandbox/ledger, /sandbox/faults, /sandbox/requests, /sandbox/reset`);
  console.log(`  Point the daemon at it with PROVIDER_URL=${sandbox.url} PROVIDER_API_KEY=<the key>\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: stopping the sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('The sandbox did not stop cleanly:', e instanceof Error ? e.message : e);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((e: unknown) => {
  console.error('The sandbox failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
