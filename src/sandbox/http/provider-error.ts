/** Thrown by sandbox services to answer with one of the provider's error responses. */
export class ProviderError extends Error {
  constructor(
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(`provider error ${status}`);
  }

  /** CAPI 400 `{code, message}`. */
  static capi400(code: string, message: string): ProviderError {
    return new ProviderError(400, { code, message });
  }

  /** CAPI 404 `{message}`, e.g. "Invoice not found". */
  static capi404(message: string): ProviderError {
    return new ProviderError(404, { message });
  }

  /** Wallet API 400 `{errorType, name, description}`. */
  static wallet400(errorType: string, name: string, description: string): ProviderError {
    return new ProviderError(400, { errorType, name, description });
  }

  /** Wallet API 404: no body at all. */
  static wallet404(): ProviderError {
    return new ProviderError(404);
  }

  /** Wallet API 422 `{message}`, e.g. "Destination unauthorized". */
  static wallet422(message: string): ProviderError {
    return new ProviderError(422, { message });
  }

  /** 409 on both APIs: the externalID already names another request. */
  static externalIdConflict(externalID: string, id: string): ProviderError {
    return new ProviderError(409, { externalID, id, message: "This 'externalID' has been used by another request" });
  }

  /** 401 with an empty body: unknown, expired or foreign credential. */
  static unauthorized(): ProviderError {
    return new ProviderError(401);
  }
}
