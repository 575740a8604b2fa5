import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlansModule } from '../plans/plans.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { PlanMigration } from './plan-migration.entity';
import { PlanMigrationsController } from './plan-migrations.controller';
import { PlanMigrationsRepository } from './plan-migrations.repository';
import { PlanMigrationsService } from './plan-migrations.service';

/** Plan migrations: repricing a plan's existing subscribers with notice. Owns the plan_migrations table. */
@Module({
  imports: [TypeOrmModule.forFeature([PlanMigration]), PlansModule, SubscriptionsModule],
  controllers: [PlanMigrationsController],
  providers: [PlanMigrationsRepository, PlanMigrationsService],
})
export class PlanMigrationsModule {}
