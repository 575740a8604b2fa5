import { randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A 10-character base62 id in the style of the provider's snowflake ids (e.g. "u7o9gfIwPA"). */
function snowflakeId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) id += BASE62[randomInt(62)];
  return id;
}

/** An opaque random credential or token; base64url, so it never looks like a card number. */
export function opaqueToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** A snowflake id not yet used in `taken`. */
export function uniqueSnowflake(taken: { has(id: string): boolean }): string {
  let id = snowflakeId();
  while (taken.has(id)) id = snowflakeId();
  return id;
}
