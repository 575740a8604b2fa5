import { ValidateBy, ValidationOptions } from 'class-validator';
import { isCardNumber } from './card-checks';

/** 12..19 digits passing the Luhn check. The message names the field, never the value. */
export function IsCardNumber(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCardNumber',
      validator: {
        validate: (value: unknown) => isCardNumber(value),
        defaultMessage: (args) => `${args?.property ?? 'cardNumber'} must be 12..19 digits passing the Luhn check`,
      },
    },
    options,
  );
}
