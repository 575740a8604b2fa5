import { IsISO8601, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsMetadata } from '../../common/http/validators';

export class CreateSubscriptionDto {
  @IsUUID(undefined, { message: 'customerId must be a UUID' })
  customerId: string;

  @IsUUID(undefined, { message: 'planId must be a UUID' })
  planId: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'startAt must be an ISO 8601 date-time such as 2027-01-31T00:00:00.000Z' })
  startAt?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
