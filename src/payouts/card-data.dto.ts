import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsCardCvv, IsCardExpiry, IsCardNumber } from './card-number.validator';
import { StorableText } from '../common/http/validators';

/** Card data on its way to tokenization: checked here, passed on once, never stored nor logged. */
@ApiSchema({ name: 'CardData', description: 'Card data, passed on to tokenization once: never stored nor logged.' })
export class CardDataDto {
  @ApiProperty({
    type: String,
    pattern: '^\\d+$',
    description: 'Digits only, of a known payment system, with its length and a valid check digit.',
    example: '4242424242424242',
  })
  @IsCardNumber()
  cardNumber: string;

  @ApiProperty({ type: String, pattern: '^(0[1-9]|1[0-2])/\\d{2}$', description: 'MM/YY; the card is good through the last day of that month.', example: '12/30' })
  @IsCardExpiry()
  expDate: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'IVAN PETROV' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  cardHolder: string;

  @ApiPropertyOptional({ type: String, pattern: '^\\d{3,4}$', description: '3 or 4 digits.', example: '123' })
  @IsOptional()
  @IsCardCvv()
  cvv?: string;
}
