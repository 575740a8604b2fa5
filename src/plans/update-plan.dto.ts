import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { PlanDunningDto } from './plan-dunning.dto';
import { IsMetadata, OptionalNotNull, StorableText } from '../common/http/validators';

/**
 * `PATCH /api/v1/plans/:id`: only what does not change the price. Anything else (price, lines,
 * currency, interval...) is refused by the global pipe as "property X should not exist".
 */
export class UpdatePlanDto {
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  @StorableText()
  name?: string;

  /** null removes the description. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @StorableText()
  description?: string | null;

  /** null goes back to the environment's ladder. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PlanDunningDto)
  dunning?: PlanDunningDto | null;

  /** Replaces the whole metadata object (send {} to clear it). */
  @OptionalNotNull()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
