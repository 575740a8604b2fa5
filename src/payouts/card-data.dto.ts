import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { EXP_DATE_PATTERN } from './card-checks';
import { IsCardNumber } from './card-number.validator';
import { StorableText } from '../common/http/validators';

/** Card data on its way to tokenization: checked here, passed on once, never stored nor logged. */
@ApiSchema({ name: 'CardData', description: 'Card data, passed on to tokenization once: never stored nor logged.' })
export class CardDataDto {
  @ApiProperty({ type: String, pattern: '^\\d{12,19}$', description: '12..19 digits passing the Luhn check.', example: '4242424242424242' })
  @IsCardNumber()
  cardNumber: string;

  @ApiProperty({ type: String, pattern: EXP_DATE_PATTERN.source, description: 'MM/YY; the card is good through the last day of that month.', example: '12/30' })
  @Matches(EXP_DATE_PATTERN, { message: 'expDate must be MM/YY with a month 01..12' })
  expDate: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'IVAN PETROV' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  cardHolder: string;

  @ApiPropertyOptional({ type: String, pattern: '^\\d{3,4}$', example: '123' })
  @IsOptional()
  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3 or 4 digits' })
  cvv?: string;
}
