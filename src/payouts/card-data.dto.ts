import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { EXP_DATE_PATTERN } from './card-checks';
import { IsCardNumber } from './card-number.validator';
import { StorableText } from '../common/http/validators';

/** Card data on its way to tokenization: checked here, passed on once, never stored nor logged. */
export class CardDataDto {
  @IsCardNumber()
  cardNumber: string;

  @Matches(EXP_DATE_PATTERN, { message: 'expDate must be MM/YY with a month 01..12' })
  expDate: string;

  @IsString()
  @Length(1, 100)
  @StorableText()
  cardHolder: string;

  @IsOptional()
  @Matches(/^\d{3,4}$/, { message: 'cvv must be 3 or 4 digits' })
  cvv?: string;
}
