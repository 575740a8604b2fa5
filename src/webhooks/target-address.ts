import * as ipaddr from 'ipaddr.js';

/** ipaddr.js range names, as an operator reads them in a refusal. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  benchmarking: 'benchmarking',
  amt: 'AMT',
  as112: 'AS112',
  deprecated: 'deprecated',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'reserved',
};

/**
 * What kind of address `text` is when it is not a public unicast one (`loopback`, `private`, `link-local`, …), or
 * null when it is public. Deny by default: every range ipaddr.js knows other than global unicast is named. An
 * IPv4-mapped IPv6 address is judged by the IPv4 address it carries; the deprecated IPv4-compatible ones (`::/96`)
 * are refused whole. Text that is no IP address answers `not an IP address`.
 */
export function nonPublicKind(text: string): string | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  let address = ipaddr.parse(bare.replace(/%.*$/, ''));
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      address = v6.toIPv4Address();
    } else if (v6.parts.slice(0, 6).every((part) => part === 0) && v6.range() === 'unicast') {
      return 'IPv4-compatible';
    }
  }
  const range = address.range();
  return range === 'unicast' ? null : (RANGE_NAMES[range] ?? range);
}
