import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SmartDunningRules, defaultSmartRules } from './smart-dunning';

/** The smart strategy's rules as configured (BILLING_PAYDAYS, BILLING_MAX_ATTEMPTS_PER_CARD_30D), read once at boot. */
@Injectable()
export class DunningRulesService {
  readonly rules: SmartDunningRules;

  constructor(config: AppConfig) {
    this.rules = defaultSmartRules([...config.billingPaydays], config.maxAttemptsPerCard30d);
  }
}
