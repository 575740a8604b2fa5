import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomersModule } from '../customers/customers.module';
import { BalanceEntriesRepository } from './balance-entries.repository';
import { BalanceEntry } from './balance-entry.entity';
import { BalancesController } from './balances.controller';
import { BalancesService } from './balances.service';

/** The customers' credit balances (an append-only ledger). Exports BalancesService: changes credit it, charges use it. */
@Module({
  imports: [TypeOrmModule.forFeature([BalanceEntry]), CustomersModule],
  controllers: [BalancesController],
  providers: [BalanceEntriesRepository, BalancesService],
  exports: [BalancesService],
})
export class BalancesModule {}
