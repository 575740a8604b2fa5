import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { DashboardResponseDto } from './dashboard-response.dto';
import { DashboardService } from './dashboard.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Console')
@Controller('api/v1/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @ApiAdminRoute({
    summary: 'Figures for the first screen',
    description: 'Charges attempted today by outcome, subscriptions by status, charges in dunning and failing webhook endpoints. Each figure is one query, cheap at any size.',
  })
  @ApiOkResponse({ type: DashboardResponseDto })
  @RequiresScope('reports:read')
  @Get()
  get() {
    return this.dashboard.overview();
  }
}
