/** Who is calling, as established from the Authorization header. */
export type Credential =
  | { kind: 'apiKey' }
  | { kind: 'invoiceToken'; invoiceID: string }
  | { kind: 'customerToken'; customerID: string };
