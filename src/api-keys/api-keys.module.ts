import { Module } from '@nestjs/common';
import { ApiKeyVerifier } from '../common/auth/api-key-verifier';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** API keys with scopes. Exports ApiKeysService (the console's sign-in authenticates keys through it) and, as the admin guard's ApiKeyVerifier, the same service. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey])],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, { provide: ApiKeyVerifier, useExisting: ApiKeysService }],
  exports: [ApiKeysService, ApiKeyVerifier],
})
export class ApiKeysModule {}
