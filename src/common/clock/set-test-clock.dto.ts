import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, Matches, ValidateIf } from 'class-validator';
import { IsDateTimeWithZone } from '../http/date-time.validator';
import { DURATION_PATTERN } from '../duration';

/** Exactly one of `now` (ISO date-time) or `advance` (a duration such as 30d). */
@ApiSchema({ name: 'SetTestClock' })
export class SetTestClockDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Move the clock to this time (only forward). Send this or `advance`.', example: '2027-03-01T00:00:00.000Z' })
  @ValidateIf((o: SetTestClockDto) => o.advance === undefined || o.now !== undefined)
  @IsDateTimeWithZone({ message: 'now must be an ISO 8601 date-time with a zone, e.g. 2027-01-31T00:00:00.000Z; send either now or advance' })
  now?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: DURATION_PATTERN.source,
    description: 'Move the clock forward by a whole number of s, m, h, d or w. Send this or `now`.',
    example: '30d',
  })
  @IsOptional()
  @ValidateIf((o: SetTestClockDto) => o.now === undefined)
  @Matches(DURATION_PATTERN, { message: 'advance must be a duration such as 30d, 12h or 15m; send either now or advance' })
  advance?: string;
}
