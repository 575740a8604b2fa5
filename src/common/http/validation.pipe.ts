import { ValidationPipe } from '@nestjs/common';

/** Unknown fields are rejected, every field is checked, and the message names each bad field. */
export function buildValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // Off so that bodiless actions (an empty DTO class) validate; whitelisting still refuses any unknown field.
    forbidUnknownValues: false,
    stopAtFirstError: false,
  });
}
