import { HttpException, ValidationError, ValidationPipe } from '@nestjs/common';
import { withErrorCode } from '../errors/coded-error';

/** Most field paths one answer lists; the messages themselves are bounded by Nest the same way. */
const MAX_FIELDS = 100;

/**
 * The path of every failing property, in the order Nest lists their messages (descendants before their
 * parent; a top-level property with children is reported through them only), so `fields[0]` is the field of
 * the first message.
 */
function failingFieldPaths(errors: ValidationError[], parent?: string): string[] {
  const paths: string[] = [];
  for (const error of errors) {
    const path = parent === undefined ? error.property : `${parent}.${error.property}`;
    const children = error.children ?? [];
    if (children.length > 0) paths.push(...failingFieldPaths(children, path));
    const reportedItself = parent !== undefined || children.length === 0;
    if (reportedItself && error.constraints && Object.keys(error.constraints).length > 0) paths.push(path);
  }
  return paths;
}

/** Nest's pipe, whose 400 also says `code: validation_failed` and which fields failed. */
class CodedValidationPipe extends ValidationPipe {
  override createExceptionFactory(): (validationErrors?: ValidationError[]) => unknown {
    const nestFactory = super.createExceptionFactory();
    return (validationErrors: ValidationError[] = []) => {
      const exception = nestFactory(validationErrors);
      if (!(exception instanceof HttpException)) return exception;
      const fields = [...new Set(failingFieldPaths(validationErrors))].slice(0, MAX_FIELDS);
      return withErrorCode(exception, 'validation_failed', { field: fields[0], fields });
    };
  }
}

/** Unknown fields are rejected, every field is checked, and the message names each bad field. */
export function buildValidationPipe(): ValidationPipe {
  return new CodedValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // Off so that bodiless actions (an empty DTO class) validate; whitelisting still refuses any unknown field.
    forbidUnknownValues: false,
    stopAtFirstError: false,
  });
}
