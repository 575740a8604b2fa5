import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { IsDateTimeWithZone } from './date-time.validator';
import { DEFAULT_PAGE_SIZE } from './pagination';

/** Plain decimal digits only: `1e2`, `0x10`, ` 5` or `+5` are refused rather than read as numbers. */
const decimalInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

/** A created range that cannot hold anything is a mistake in the request, not an empty list. */
function IsAfterCreatedAfter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAfterCreatedAfter',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const after = (args?.object as ListQueryDto | undefined)?.createdAfter;
          if (typeof value !== 'string' || typeof after !== 'string') return true;
          const [from, to] = [Date.parse(after), Date.parse(value)];
          return Number.isNaN(from) || Number.isNaN(to) || to > from;
        },
        defaultMessage: () => 'createdBefore must be later than createdAfter',
      },
    },
    options,
  );
}

/**
 * What every list accepts: `limit` (1..200, default 50), the opaque `cursor`, and the created range
 * (`createdAfter` inclusive, `createdBefore` exclusive, so consecutive ranges neither overlap nor leave a gap).
 */
export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: DEFAULT_PAGE_SIZE, description: 'Items per page.', example: 50 })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt({ message: 'limit must be an integer between 1 and 200' })
  @Min(1, { message: 'limit must be an integer between 1 and 200' })
  @Max(200, { message: 'limit must be an integer between 1 and 200' })
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: 200,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'The `nextCursor` of the page before; absent for the first page.',
    example: 'MjAyNy0wMS0zMVQwMDowMDowMC4wMDBafDE',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a nextCursor value returned by this list' })
  cursor?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only items created at or after this instant (an ISO 8601 date-time with its zone).',
    example: '2027-01-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateTimeWithZone()
  createdAfter?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Only items created strictly before this instant (an ISO 8601 date-time with its zone); later than createdAfter.',
    example: '2027-02-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateTimeWithZone()
  @IsAfterCreatedAfter()
  createdBefore?: string;
}
