/** Thrown when a stored secret cannot be opened: the key changed (SECRETS_KEY or ADMIN_TOKEN) or the row was altered. */
export class SecretUnreadableError extends Error {
  constructor() {
    super('A stored secret cannot be decrypted: SECRETS_KEY (or ADMIN_TOKEN, its default) is not the one it was stored with');
  }
}
