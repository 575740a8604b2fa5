import { ApiSchema } from '@nestjs/swagger';
import { ApiNullableText } from '../../common/api-docs/api-properties';

/** Documentation of the card data a customer or binding shows: never the number itself. */
@ApiSchema({ name: 'Card' })
export class CardResponseDto {
  @ApiNullableText('First six digits.', '424242')
  bin: string | null;

  @ApiNullableText('Last four digits.', '4242')
  lastDigits: string | null;

  @ApiNullableText("The card's payment system, as the provider names it.", 'visa')
  paymentSystem: string | null;
}
