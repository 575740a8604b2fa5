import { IsOptional, IsString, Length } from 'class-validator';
import { IsCardCvv, IsCardExpiry, IsCardNumber } from './card-number.validator';
import { StorableText } from '../common/http/validators';

/** Card data on its way to tokenization: checked here, passed on once, never stored nor logged. */
export class CardDataDto {
  @IsCardNumber()
  cardNumber: string;

  @IsCardExpiry()
  expDate: string;

  @IsString()
  @Length(1, 100)
  @StorableText()
  cardHolder: string;

  @IsOptional()
  @IsCardCvv()
  cvv?: string;
}
