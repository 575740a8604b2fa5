import { Type } from 'class-transformer';
import { IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { IsMetadata, StorableText } from '../common/http/validators';
import { CardDataDto } from './card-data.dto';

/** POST /api/v1/payouts/destinations: a card to tokenize, or a card token the caller already has. */
export class CreatePayoutDestinationDto {
  @IsString()
  @Length(1, 100)
  @StorableText()
  name: string;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as RUB (^[A-Z]{3}$)' })
  currency: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => CardDataDto)
  card?: CardDataDto;

  @IsOptional()
  @IsString()
  @Length(1, 1000)
  @StorableText()
  cardToken?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
