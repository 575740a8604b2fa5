/** Swagger-style error types, as the provider's request validator names them. */
export type ViolationType = 'schema_violated' | 'wrong_type' | 'not_in_range' | 'wrong_length' | 'wrong_size' | 'no_match' | 'not_found';

/**
 * A request parameter (header, query, path or the body as a whole) failed the provider's schema.
 * The exchange renders it in the operation's dialect: CAPI `{code:"invalidRequest", message}` or
 * Wallet API `{errorType, name, description}`.
 */
export class SchemaViolation extends Error {
  constructor(
    readonly type: ViolationType,
    readonly param: string,
    readonly description?: string,
  ) {
    super(`${param}: ${type}${description ? ` (${description})` : ''}`);
  }

  capiBody(): { code: string; message: string } {
    const base = `Request parameter: ${this.param}, error type: ${this.type}`;
    return { code: 'invalidRequest', message: this.description ? `${base}, description: ${this.description}` : base };
  }

  walletBody(): { errorType: string; name: string; description?: string } {
    const errorType = this.type
      .split('_')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('');
    return this.description ? { errorType, name: this.param, description: this.description } : { errorType, name: this.param };
  }
}
