import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty } from '../common/api-docs/api-properties';

/** Documentation of the payout setup: the identity and wallet every payout goes through. */
@ApiSchema({ name: 'PayoutSetup' })
export class PayoutSetupResponseDto {
  @ApiProperty({ description: "The payout identity's id at the provider.", example: '1' })
  identityId: string;

  @ApiProperty({ description: "The wallet's id at the provider.", example: '2' })
  walletId: string;

  @ApiCurrencyProperty("The wallet's currency; every payout is in it.")
  currency: string;

  @ApiProperty({ description: 'true: adopted from PAYOUT_IDENTITY_ID and PAYOUT_WALLET_ID rather than created.', example: false })
  adopted: boolean;
}
