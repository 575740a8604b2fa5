import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, METADATA_MAX_KEY_LENGTH, METADATA_MAX_KEYS } from '../http/validators';

/** Documentation of the fields many DTOs share, written once so each rule reads the same everywhere. */

export const SAMPLE_ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
export const SAMPLE_TIME = '2027-01-31T00:00:00.000Z';

const METADATA_RULE = `A free-form JSON object: at most ${METADATA_MAX_KEYS} keys of 1..${METADATA_MAX_KEY_LENGTH} characters, ${METADATA_MAX_BYTES} bytes as JSON, nested at most ${METADATA_MAX_DEPTH} levels.`;

/** Free-form metadata in a request (validators.ts: IsMetadata). */
export function ApiMetadataProperty(description = 'Your own data, answered as given.'): PropertyDecorator {
  return ApiPropertyOptional({ type: 'object', additionalProperties: true, description: `${description} ${METADATA_RULE}`, example: { orderId: 'A-1001' } });
}

/** Free-form metadata in an answer: always present, `{}` when none was given. */
export function ApiMetadataAnswer(): PropertyDecorator {
  return ApiProperty({ type: 'object', additionalProperties: true, description: 'The metadata given at creation (`{}` when none).', example: { orderId: 'A-1001' } });
}

export function ApiCurrencyProperty(description = 'ISO 4217 alphabetic code.'): PropertyDecorator {
  return ApiProperty({ type: String, pattern: '^[A-Z]{3}$', description, example: 'RUB' });
}

/** A UUID made by the daemon. */
export function ApiIdProperty(description: string, options: { nullable?: boolean; required?: boolean } = {}): PropertyDecorator {
  const property = { type: String, format: 'uuid', description, example: SAMPLE_ID, ...(options.nullable ? { nullable: true } : {}) };
  return options.required === false ? ApiPropertyOptional(property) : ApiProperty(property);
}

/** An ISO 8601 timestamp in UTC. */
export function ApiTimeProperty(description: string, options: { nullable?: boolean } = {}): PropertyDecorator {
  return ApiProperty({ type: String, format: 'date-time', description, example: SAMPLE_TIME, ...(options.nullable ? { nullable: true } : {}) });
}

/** An amount in minor units. */
export function ApiAmountProperty(description: string, options: { maximum?: number } = {}): PropertyDecorator {
  return ApiProperty({ type: 'integer', minimum: 1, maximum: options.maximum ?? Number.MAX_SAFE_INTEGER, description, example: 2500 });
}

/** A nullable text an answer shows as the provider or the daemon gave it. */
export function ApiNullableText(description: string, example: string): PropertyDecorator {
  return ApiProperty({ type: String, nullable: true, description, example });
}
