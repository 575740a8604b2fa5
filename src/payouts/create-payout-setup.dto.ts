import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { ApiCurrencyProperty } from '../common/api-docs/api-properties';
import { StorableText } from '../common/http/validators';

/** POST /api/v1/payouts/setup: what operations 8 (identity) and 9 (wallet) need. */
@ApiSchema({ name: 'CreatePayoutSetup' })
export class CreatePayoutSetupDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: "The payout identity's name at the provider.", example: 'Acme LLC' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  identityName: string;

  @ApiProperty({ minLength: 1, maxLength: 40, description: "The identity's provider, as the wallet API names it.", example: 'test' })
  @IsString()
  @Length(1, 40)
  @StorableText()
  provider: string;

  @ApiProperty({ minLength: 1, maxLength: 40, description: "The identity's class, as the wallet API names it.", example: 'company' })
  @IsString()
  @Length(1, 40)
  @StorableText()
  class: string;

  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Payouts RUB' })
  @IsString()
  @Length(1, 100)
  @StorableText()
  walletName: string;

  @ApiCurrencyProperty("The wallet's currency; every payout is in it.")
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as RUB (^[A-Z]{3}$)' })
  currency: string;
}
