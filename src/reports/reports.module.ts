import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';
import { RevenueGaugesService } from './revenue-gauges.service';
import { RevenueReportRepository } from './revenue-report.repository';
import { RevenueReportService } from './revenue-report.service';

/** Read-only reports over what the billing modules recorded; owns no table. */
@Module({
  controllers: [ReportsController],
  providers: [RevenueReportRepository, RevenueReportService, RevenueGaugesService],
})
export class ReportsModule {}
