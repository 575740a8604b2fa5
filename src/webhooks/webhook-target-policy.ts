import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import * as ipaddr from 'ipaddr.js';
import { AppConfig } from '../config/app-config';
import { nonPublicKind } from './target-address';

/** Names that are never on the public internet (RFC 6761, RFC 6762, RFC 8375, ICANN's `.internal`). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)\.?$/i;
const LOOPBACK_NAME = /(^|\.)localhost\.?$/i;

/**
 * Where webhooks may be sent, so an endpoint cannot turn the daemon into a way into the merchant's own network
 * (cloud metadata, databases, the daemon's own API). The rules:
 *
 * - in production only `https`; elsewhere `http` too;
 * - no user name or password in the URL (they would be stored and shown in clear);
 * - the host, and every address it resolves to when a delivery connects, is a public unicast address: no loopback,
 *   private, link-local, unique-local, multicast, unspecified, reserved, carrier-grade NAT or IPv4-mapped/compatible
 *   forms of those (however the address is spelled: `0xA9FEA9FE`, `2852039166` and `0251.0376.0251.0376` are
 *   `169.254.169.254`), and no name that is local by definition (`localhost`, `*.local`, `*.internal`);
 * - outside production, loopback is allowed, for a receiver on the developer's machine;
 * - `WEBHOOK_ALLOWED_HOSTS` opens chosen hosts (a name, an address, or a CIDR range) to the address rules.
 */
@Injectable()
export class WebhookTargetPolicy {
  private readonly allowedNames: ReadonlySet<string>;
  private readonly allowedRanges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(private readonly config: AppConfig) {
    const entries = config.webhookAllowedHosts.map((entry) => entry.toLowerCase());
    this.allowedNames = new Set(entries.filter((entry) => !isRange(entry)));
    this.allowedRanges = entries.filter(isRange).map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32]));
  }

  /** Why a URL may not be a webhook target as written (scheme, credentials, a literal address or local name), or null. */
  problemWithUrl(text: string): string | null {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'not a valid URL';
    }
    if (url.protocol !== 'https:' && (this.config.production || url.protocol !== 'http:')) {
      return this.config.production ? 'only https URLs are allowed in production' : 'only http and https URLs are allowed';
    }
    if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed; authenticate the webhook by its signature';
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.allowedNames.has(host)) return null;
    if (isIP(host)) return this.problemWithAddress(host);
    if (LOCAL_NAME.test(host) && !(LOOPBACK_NAME.test(host) && !this.config.production)) return `${host} is a local name`;
    return null;
  }

  /** Why the daemon may not connect to `address` (one a name resolved to, or a literal), or null. */
  problemWithAddress(address: string, hostname?: string): string | null {
    if (hostname !== undefined && this.allowedNames.has(hostname.toLowerCase())) return null;
    const kind = nonPublicKind(address);
    if (kind === null) return null;
    if (kind === 'loopback' && !this.config.production) return null;
    if (this.inAllowedRange(address)) return null;
    return `${kind} address`;
  }

  private inAllowedRange(address: string): boolean {
    if (this.allowedRanges.length === 0 || !ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return this.allowedRanges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  }
}

function isRange(entry: string): boolean {
  return entry.includes('/') ? ipaddr.isValidCIDR(entry) : isIP(entry) !== 0;
}
