import type { Credential } from './credential';

/** Which credentials an operation accepts; anything else is answered 401 with an empty body. */
export class AuthRequirement {
  private static readonly API_KEY_ONLY = new AuthRequirement((c) => c.kind === 'apiKey');
  private static readonly ANY = new AuthRequirement(() => true);

  private constructor(private readonly accepts: (credential: Credential) => boolean) {}

  /** The merchant's API key only (spec operations 1-5 and 7-14). */
  static apiKey(): AuthRequirement {
    return AuthRequirement.API_KEY_ONLY;
  }

  /** Only the access token of this very invoice (spec operation 6, create payment). */
  static invoiceToken(invoiceID: string): AuthRequirement {
    return new AuthRequirement((c) => c.kind === 'invoiceToken' && c.invoiceID === invoiceID);
  }

  /** The API key, or this invoice's access token (the real API lets the payer read its invoice). */
  static apiKeyOrInvoiceToken(invoiceID: string): AuthRequirement {
    return new AuthRequirement((c) => c.kind === 'apiKey' || (c.kind === 'invoiceToken' && c.invoiceID === invoiceID));
  }

  /** The API key, or this customer's access token (the real API's client-side binding flow). */
  static apiKeyOrCustomerToken(customerID: string): AuthRequirement {
    return new AuthRequirement((c) => c.kind === 'apiKey' || (c.kind === 'customerToken' && c.customerID === customerID));
  }

  /** Any valid credential: tokenization is open to the API key and to invoice and customer tokens. */
  static anyCredential(): AuthRequirement {
    return AuthRequirement.ANY;
  }

  allows(credential: Credential): boolean {
    return this.accepts(credential);
  }
}
