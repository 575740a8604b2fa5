import { ValidateBy, ValidationOptions } from 'class-validator';
import { isCardCvv, isCardExpiry, isCardNumber } from './card-checks';

/** Validators of card data (see card-checks.ts). Messages name the field, never the value. */

function cardRule(name: string, validate: (value: unknown) => boolean, rule: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name, validator: { validate, defaultMessage: (args) => `${args?.property ?? name} ${rule}` } }, options);
}

export function IsCardNumber(options?: ValidationOptions): PropertyDecorator {
  return cardRule('isCardNumber', isCardNumber, 'must be the digits of a card number: a known payment system, its length and a valid check digit', options);
}

export function IsCardExpiry(options?: ValidationOptions): PropertyDecorator {
  return cardRule('isCardExpiry', isCardExpiry, 'must be MM/YY with a month 01..12', options);
}

export function IsCardCvv(options?: ValidationOptions): PropertyDecorator {
  return cardRule('isCardCvv', isCardCvv, 'must be 3 or 4 digits', options);
}
