import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { PlanDunningDto } from './plan-dunning.dto';
import { ApiMetadataProperty } from '../common/api-docs/api-properties';
import { IsMetadata, OptionalNotNull, StorableText } from '../common/http/validators';

/**
 * `PATCH /api/v1/plans/:id`: only what does not change the price. Anything else (price, lines,
 * currency, interval...) is refused by the global pipe as "property X should not exist".
 */
@ApiSchema({ name: 'UpdatePlan' })
export class UpdatePlanDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Pro monthly (2027)' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  @StorableText()
  name?: string;

  /** null removes the description. */
  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true, description: 'null removes the description.', example: 'Everything in Pro, billed monthly' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string | null;

  /** null goes back to the environment's ladder. */
  @ApiPropertyOptional({ type: PlanDunningDto, nullable: true, description: "null goes back to the environment's ladder." })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PlanDunningDto)
  dunning?: PlanDunningDto | null;

  /** Replaces the whole metadata object (send {} to clear it). */
  @ApiMetadataProperty('Replaces the whole metadata object (send {} to clear it).')
  @OptionalNotNull()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
