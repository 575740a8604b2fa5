import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { MetricsService } from '../../src/common/metrics/metrics.service';
import { ConfigModule } from '../../src/config/config.module';
import { RuntimeSettings } from '../../src/config/runtime-settings';
import { GatewayModule } from '../../src/gateway/gateway.module';
import { ProcessingGateway } from '../../src/gateway/processing.gateway';
import { WalletGateway } from '../../src/gateway/wallet.gateway';
import { testConfig } from '../support/test-config';
import { waitFor } from '../support/wait';
import { json, ScriptedProviderServer } from './support/scripted-provider.server';

describe('GatewayModule', () => {
  let server: ScriptedProviderServer;

  beforeAll(async () => {
    server = await ScriptedProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('wires both gateways from the global AppConfig, RuntimeSettings and MetricsService, and drops its sockets on shutdown', async () => {
    @Global()
    @Module({
      providers: [{ provide: RuntimeSettings, useValue: new RuntimeSettings('unused', server.url) }, MetricsService],
      exports: [RuntimeSettings, MetricsService],
    })
    class TestGlobalsModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(testConfig({ PROVIDER_TIMEOUT_MS: '10000' })), TestGlobalsModule, GatewayModule],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();

    server.reply(json(200, { id: 'c1', status: 'ready' }), json(200, { id: 'd1', status: 'Authorized' }), json(200, { id: 'c1', status: 'ready' }), json(200, { id: 'c1', status: 'ready' }));
    await expect(app.get(ProcessingGateway).getCustomer('c1')).resolves.toMatchObject({ id: 'c1' });
    await expect(app.get(WalletGateway).getDestination('d1')).resolves.toMatchObject({ id: 'd1' });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sandbox-api-key', 'Bearer sandbox-api-key']);
    expect(await app.get(MetricsService).render()).toContain('billing_provider_requests_total{operation="getCustomer",result="ok"} 1');
    // Keep-alive: undici's pool may open a second connection for a call made the moment the first answer ends (its
    // connection reports itself free a microtask later), and from then on reuses them.
    await expect(app.get(ProcessingGateway).getCustomer('c1')).resolves.toMatchObject({ id: 'c1' });
    await expect(app.get(ProcessingGateway).getCustomer('c1')).resolves.toMatchObject({ id: 'c1' });
    expect(server.requests).toHaveLength(4);
    expect(server.connectionsAccepted).toBeLessThanOrEqual(2);
    expect(server.openConnections).toBe(server.connectionsAccepted);

    await app.close();
    // The server hears of the closed connection a moment later.
    await waitFor(async () => server.openConnections, (n) => n === 0, { what: 'the keep-alive connection closed' });
  });
});
