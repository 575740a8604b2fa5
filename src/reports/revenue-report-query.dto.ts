import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { IsDateTimeWithZone } from '../common/http/date-time.validator';
import { intervalBoundaries, MAX_INTERVALS, ReportInterval } from './revenue-intervals';

const INTERVALS: ReportInterval[] = ['day', 'week', 'month'];

/** `to` is later than `from` and the range holds at most MAX_INTERVALS intervals. */
function IsReportEnd(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isReportEnd',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const query = args?.object as RevenueReportQueryDto | undefined;
          if (typeof value !== 'string' || typeof query?.from !== 'string') return true;
          const [from, to] = [Date.parse(query.from), Date.parse(value)];
          if (Number.isNaN(from) || Number.isNaN(to)) return true;
          const interval = INTERVALS.includes(query.interval as ReportInterval) ? (query.interval as ReportInterval) : 'month';
          return to > from && intervalBoundaries(new Date(from), new Date(to), interval).length - 1 <= MAX_INTERVALS;
        },
        defaultMessage: () => `to must be later than from, at most ${MAX_INTERVALS} intervals after it`,
      },
    },
    options,
  );
}

/** `GET /api/v1/reports/revenue?from=&to=&interval=&currency=`. */
export class RevenueReportQueryDto {
  @ApiProperty({ description: 'Start of the range (the interval holding it starts the report), ISO 8601 with a zone.', example: '2027-03-01T00:00:00.000Z' })
  @IsDateTimeWithZone()
  from: string;

  @ApiProperty({ description: 'End of the range, exclusive; at most 400 intervals after `from`.', example: '2027-04-01T00:00:00.000Z' })
  @IsDateTimeWithZone()
  @IsReportEnd()
  to: string;

  @ApiPropertyOptional({ enum: INTERVALS, description: 'Length of each interval, in UTC (weeks start on Monday). Default month.', example: 'month' })
  @IsOptional()
  @IsIn(INTERVALS)
  interval?: ReportInterval;

  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', description: 'Only this currency (ISO 4217). Without it, one row per currency and interval.', example: 'RUB' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code of three capital letters, e.g. RUB' })
  currency?: string;
}
