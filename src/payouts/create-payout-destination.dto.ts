import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { ApiCurrencyProperty, ApiMetadataProperty } from '../common/api-docs/api-properties';
import { IsMetadata, StorableText } from '../common/http/validators';
import { CardDataDto } from './card-data.dto';

/** POST /api/v1/payouts/destinations: a card to tokenize, or a card token the caller already has. */
@ApiSchema({ name: 'CreatePayoutDestination' })
export class CreatePayoutDestinationDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Your name for this destination.', example: 'Courier 17' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  name: string;

  @ApiCurrencyProperty("The payout wallet's currency.")
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as RUB (^[A-Z]{3}$)' })
  currency: string;

  @ApiPropertyOptional({ type: CardDataDto, description: 'The card to tokenize. Send this or `cardToken`.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardDataDto)
  card?: CardDataDto;

  @ApiPropertyOptional({ minLength: 1, maxLength: 1000, description: 'A card token you already got from the provider. Send this or `card`.', example: 'eyJjYXJkIjoidG9rZW4ifQ' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  @StorableText()
  cardToken?: string;

  @ApiMetadataProperty()
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;
}
