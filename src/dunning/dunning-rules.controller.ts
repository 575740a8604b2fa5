import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { AppConfig } from '../config/app-config';
import { DEFAULT_MAX_DAYS } from '../plans/plans.service';
import { DunningRulesResponseDto } from './dunning-rules-response.dto';
import { DunningRulesService } from './dunning-rules.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Charges')
@Controller('api/v1/dunning')
export class DunningRulesController {
  constructor(
    private readonly dunningRules: DunningRulesService,
    private readonly config: AppConfig,
  ) {}

  @ApiAdminRoute({
    summary: 'The rules of smart dunning',
    description: 'How the `smart` strategy times each retry from the decline: classes of decline codes, payday windows, the morning hour, the allowed local hours, the per-card cap.',
  })
  @ApiOkResponse({ type: DunningRulesResponseDto })
  @RequiresScope('charges:read')
  @Get('rules')
  get(): DunningRulesResponseDto {
    const rules = this.dunningRules.rules;
    return {
      ...rules,
      paydays: [...rules.paydays],
      classes: rules.classes.map((c) => ({ ...c, codes: [...c.codes], delays: [...c.delays] })),
      defaultMaxDays: DEFAULT_MAX_DAYS,
      defaultStrategy: this.config.dunningStrategy,
    };
  }
}
