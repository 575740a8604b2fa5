import { createHmac, timingSafeEqual } from 'node:crypto';

/** The label that separates the recovery links' key from every other use of ADMIN_TOKEN. */
const KEY_LABEL = 'billing-daemon/recovery-link/v1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** The key that signs recovery links: HMAC-SHA256 of a fixed label under ADMIN_TOKEN (rotating the token ends every link). */
export function recoveryLinkKey(adminToken: string): Buffer {
  return createHmac('sha256', adminToken).update(KEY_LABEL).digest();
}

/**
 * Tokens `<linkId>.<HMAC-SHA256 base64url>`. The MAC covers the link id, so a token is checked before any database
 * read; the link's row (written only by the daemon) names its one charge and one customer. Nothing but the id is
 * stored: the MAC is recomputed.
 */
export class RecoveryLinkToken {
  constructor(private readonly key: Buffer) {}

  sign(linkId: string): string {
    return `${linkId}.${this.linkMac(linkId).toString('base64url')}`;
  }

  /** The link id when the token carries a valid MAC; null for anything else (compared in constant time). */
  verify(token: string): string | null {
    const dot = token.indexOf('.');
    if (dot < 0) return null;
    const linkId = token.slice(0, dot);
    const given = token.slice(dot + 1);
    if (!UUID.test(linkId) || !MAC.test(given)) return null;
    // Compared as text: base64url's last character carries spare bits, so decoding would accept several spellings.
    const expected = Buffer.from(this.linkMac(linkId).toString('base64url'));
    const actual = Buffer.from(given);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    return linkId;
  }

  private linkMac(linkId: string): Buffer {
    return createHmac('sha256', this.key).update(`link\n${linkId}`).digest();
  }
}
