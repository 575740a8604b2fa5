import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODE_NAMES, ERROR_CODES, ErrorCode } from './error-codes';

const CODE_TABLE = ERROR_CODE_NAMES.map((code) => `- \`${code}\` (${ERROR_CODES[code].status ?? 'any'}): ${ERROR_CODES[code].meaning}`).join('\n');

/** Documentation of every error body (AllExceptionsFilter writes them). */
@ApiSchema({ name: 'Error', description: 'Every error answer: Nest\'s `statusCode`, `error` and `message`, plus the stable `code`.' })
export class ErrorResponseDto {
  @ApiProperty({ type: 'integer', description: 'The HTTP status code, repeated.', example: 400, minimum: 400, maximum: 599 })
  statusCode: number;

  @ApiProperty({ description: "The status code's name.", example: 'Bad Request' })
  error: string;

  @ApiProperty({
    description: 'What went wrong, for people: one text, or a list with one text per problem (each naming its field). May be reworded; branch on `code`.',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: ['lines.0.price must not be less than 1'],
  })
  message: string | string[];

  @ApiProperty({ description: `Stable, machine-readable reason:\n\n${CODE_TABLE}`, enum: ERROR_CODE_NAMES, enumName: 'ErrorCode', example: 'validation_failed' })
  code: ErrorCode;

  @ApiPropertyOptional({ description: 'The one request field at fault, as a path into the body (or the query parameter, path parameter or header name).', example: 'lines.0.price' })
  field?: string;

  @ApiPropertyOptional({ description: 'validation_failed: every field at fault, in the order of `message`.', type: [String], example: ['lines.0.price'] })
  fields?: string[];

  @ApiPropertyOptional({ description: 'insufficient_scope: the scope the route needs.', type: String, example: 'plans:write' })
  scope?: string;

  @ApiPropertyOptional({ description: "provider_refused: the provider's own error code, when it gave one.", type: String, nullable: true, example: 'invalidPaymentToolToken' })
  providerCode?: string | null;
}
