import { IsString, Length, Matches } from 'class-validator';
import { StorableText } from '../common/http/validators';

/** POST /api/v1/payouts/setup: what operations 8 (identity) and 9 (wallet) need. */
export class CreatePayoutSetupDto {
  @IsString()
  @Length(1, 100)
  @StorableText()
  identityName: string;

  @IsString()
  @Length(1, 40)
  @StorableText()
  provider: string;

  @IsString()
  @Length(1, 40)
  @StorableText()
  class: string;

  @IsString()
  @Length(1, 100)
  @StorableText()
  walletName: string;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as RUB (^[A-Z]{3}$)' })
  currency: string;
}
