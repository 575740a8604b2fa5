import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module';
import { DunningRulesController } from './dunning-rules.controller';
import { DunningRulesService } from './dunning-rules.service';
import { DunningService } from './dunning.service';

/**
 * Dunning: how declined charges are collected. Billing asks `DunningService.policyFor` and never looks at the strategy;
 * the fixed ladder and smart dunning are the two `DunningPolicy` implementations.
 */
@Module({
  imports: [PlansModule],
  controllers: [DunningRulesController],
  providers: [DunningRulesService, DunningService],
  exports: [DunningService],
})
export class DunningModule {}
