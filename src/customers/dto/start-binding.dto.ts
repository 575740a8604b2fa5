import { IsString, Length } from 'class-validator';

/** POST /api/v1/customers/:id/bindings: the result of tokenizing a card in the merchant's own form. */
export class StartBindingDto {
  @IsString()
  @Length(1, 2000)
  paymentToolToken: string;

  @IsString()
  @Length(1, 1000)
  paymentSession: string;
}
