import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { InFlightMeter, meterHttpTo } from './calls-in-flight';

/** A server that holds every request; `waitHeld()` answers the next held one's response, for the test to end or drop. */
async function holdingServer() {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => held.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const waitHeld = async () => {
    for (let i = 0; held.length === 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    return held.shift() as http.ServerResponse;
  };
  return { server, port, waitHeld };
}

/** A call through undici, as the daemon's provider client makes them; settles whether its response ended or its connection dropped. */
const call = (port: number, path: string, agent: Agent) =>
  agent.request({ origin: `http://127.0.0.1:${port}`, path, method: 'GET' }).then(
    (res) => res.body.dump(),
    () => undefined,
  );

describe('meterHttpTo', () => {
  it('counts a call in flight from its request until its response ended (or it failed), with payment reads apart', async () => {
    const { server, port, waitHeld } = await holdingServer();
    const meter = meterHttpTo(port);
    const agent = new Agent();
    try {
      meter.start();
      const answered = call(port, '/v2/processing/invoices/inv1/payments/pay1', agent);
      const held = await waitHeld();
      expect(meter.read()).toMatchObject({ calls: 1, paymentReads: 1 });
      // Held by the server the whole time between start and read: exactly one call in flight on average.
      meter.start();
      await new Promise((r) => setTimeout(r, 20));
      expect(meter.read().average).toBe(1);
      held.end('{}');
      await answered;
      meter.start();
      await new Promise((r) => setTimeout(r, 20));
      expect(meter.read()).toMatchObject({ average: 0, calls: 0 });

      // A call whose connection drops ends too, and a call that is not a payment read is not counted as one.
      const dropped = call(port, '/v2/processing/invoices', agent);
      (await waitHeld()).socket?.destroy();
      await dropped;
      expect(meter.read()).toMatchObject({ calls: 1, paymentReads: 0 });
      meter.start();
      await new Promise((r) => setTimeout(r, 20));
      expect(meter.read()).toMatchObject({ average: 0 });
    } finally {
      meter.restore();
      await agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("reports a run's idle ends: the wait before its first call and the time since its last answer", async () => {
    const meter = new InFlightMeter();
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    meter.start();
    await pause(30);
    const end = meter.begin(false);
    // In flight: no tail yet.
    expect(meter.read().tailMs).toBe(0);
    await pause(10);
    end();
    await pause(30);
    const { firstCallMs, tailMs } = meter.read();
    expect(firstCallMs).toBeGreaterThanOrEqual(25);
    expect(tailMs).toBeGreaterThanOrEqual(25);
    // A new run forgets the last one's calls: no call yet, so its first call is as far as the run itself.
    meter.start();
    await pause(20);
    expect(meter.read()).toMatchObject({ calls: 0, tailMs: 0 });
    expect(meter.read().firstCallMs).toBeGreaterThanOrEqual(15);
  });

  it('reports the average time a call was in flight, whatever the idle time around the calls', async () => {
    const meter = new InFlightMeter();
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    meter.start();
    expect(meter.read().callMs).toBe(0);
    await pause(40);
    const firstBegan = performance.now();
    const first = meter.begin(false);
    await pause(20);
    const secondBegan = performance.now();
    const second = meter.begin(false);
    await pause(40);
    first();
    const firstEnded = performance.now();
    await pause(10);
    second();
    const secondEnded = performance.now();
    await pause(40);
    const { callMs, calls } = meter.read();
    expect(calls).toBe(2);
    // Not the run's span over its calls (over 75 ms here): the idle time before the first call and after the last does not count.
    const expected = (firstEnded - firstBegan + (secondEnded - secondBegan)) / 2;
    expect(Math.abs(callMs - expected)).toBeLessThan(1);
  });

});
