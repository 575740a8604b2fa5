import { randomBytes } from 'node:crypto';

/** Random bytes behind a signing secret (the contract asks for at least 24). */
const SECRET_BYTES = 32;

/** A new endpoint signing secret in the Standard Webhooks form: `whsec_` and the base64 of random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}
