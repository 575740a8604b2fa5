import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE } from './pagination';

/** `limit` (1..200, default 50) and the opaque `cursor` every list accepts. */
export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: DEFAULT_PAGE_SIZE, description: 'Items per page.', example: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer between 1 and 200' })
  @Min(1, { message: 'limit must be an integer between 1 and 200' })
  @Max(200, { message: 'limit must be an integer between 1 and 200' })
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: 200,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'The `nextCursor` of the page before; absent for the first page.',
    example: 'MjAyNy0wMS0zMVQwMDowMDowMC4wMDBafDNmMmI4YzFlLTRkNWEtNGI2Yy04ZDdlLTlmMGExYjJjM2Q0ZQ',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a nextCursor value returned by this list' })
  cursor?: string;
}
