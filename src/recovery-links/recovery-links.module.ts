import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RecoveryLink } from './recovery-link.entity';
import { RecoveryLinksRepository } from './recovery-links.repository';
import { RecoveryLinksService } from './recovery-links.service';

/**
 * The links themselves (minting, revoking, resolving a token). Billing mints them in its settling transactions; the
 * routes and the page live in RecoveryPagesModule, which reads billing, so neither module depends on the other twice.
 */
@Module({
  imports: [TypeOrmModule.forFeature([RecoveryLink])],
  providers: [RecoveryLinksRepository, RecoveryLinksService],
  exports: [RecoveryLinksService],
})
export class RecoveryLinksModule {}
