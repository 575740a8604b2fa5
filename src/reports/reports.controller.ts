import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { RevenueReportQueryDto } from './revenue-report-query.dto';
import { RevenueReportResponseDto } from './revenue-report-response.dto';
import { RevenueReportService } from './revenue-report.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Reports')
@Controller('api/v1/reports')
export class ReportsController {
  constructor(private readonly revenue: RevenueReportService) {}

  @ApiAdminRoute({
    summary: 'Revenue: MRR, its movements, churn, failure and recovery rates',
    description: 'Per interval (UTC) and currency. Definitions: docs/billing.md, "Revenue report". The current month is also exported as Prometheus gauges (revenue_*).',
  })
  @ApiOkResponse({ type: RevenueReportResponseDto })
  @RequiresScope('reports:read')
  @Get('revenue')
  get(@Query() query: RevenueReportQueryDto): Promise<RevenueReportResponseDto> {
    return this.revenue.report(new Date(query.from), new Date(query.to), query.interval ?? 'month', query.currency ?? null);
  }
}
