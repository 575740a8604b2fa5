import type { BankCardDetails } from '../../gateway/provider-api.types';
import type { CardProfile } from '../state/sandbox-records';

/** How a vaulted card appears in responses: masked, with both the v2 and the older field names. */
export function cardDetails(card: CardProfile): BankCardDetails {
  return {
    detailsType: 'PaymentToolDetailsBankCard',
    bin: card.bin,
    first6: card.bin,
    lastDigits: card.lastDigits,
    last4: card.lastDigits,
    cardNumberMask: card.cardNumberMask,
    paymentSystem: card.paymentSystem,
  };
}
