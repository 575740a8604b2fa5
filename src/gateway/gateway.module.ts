import { Module } from '@nestjs/common';
import { ProcessingGateway } from './processing.gateway';
import { ProviderHttpClient } from './provider-http.client';
import { WalletGateway } from './wallet.gateway';

/** Provider HTTP lives only here. AppConfig, RuntimeSettings and MetricsService come from global modules. */
@Module({
  providers: [ProviderHttpClient, ProcessingGateway, WalletGateway],
  exports: [ProviderHttpClient, ProcessingGateway, WalletGateway],
})
export class GatewayModule {}
