import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { EgressRule } from './outbound-errors.js';

/** An address, parsed. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** What an address is for the egress policy: reachable on the internet, or the rule that refuses it by default. */
export type AddressClass = 'public' | Exclude<EgressRule, 'scheme' | 'platform-address'>;

/**
 * Cloud metadata services: they hand out the machine's credentials, so they keep their own class
 * (refused even when private addresses are allowed). AWS, GCP, Azure, OCI and DigitalOcean answer
 * on 169.254.169.254, AWS over IPv6 on fd00:ec2::254, ECS tasks on 169.254.170.2, Alibaba Cloud on
 * 100.100.100.200.
 */
const metadataAddresses = new Set(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200']);

/** ipaddr.js range names → the policy's classes; every range not named here is `special-purpose`. */
const classOfRange: Record<string, AddressClass> = {
  unicast: 'public',
  loopback: 'loopback',
  linkLocal: 'link-local',
  private: 'private',
  uniqueLocal: 'private',
  carrierGradeNat: 'carrier-grade-nat',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'multicast',
};

/** `::/96` without `::` and `::1`: the deprecated IPv4-compatible form, which ipaddr.js calls unicast. */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const [a, b, c, d, e, f, g, h] = address.parts;
  return a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && !(g === 0 && (h === 0 || h === 1));
}

/**
 * Parses an IP address as a URL host or a resolver names it (`127.0.0.1`, `::1`, `[::1]`), or
 * answers undefined for a name. IPv4-mapped (`::ffff:127.0.0.1`) and IPv4-compatible
 * (`::127.0.0.1`) IPv6 forms become the IPv4 address they carry, so every spelling of one address
 * is judged the same. (Decimal, octal and hex IPv4 forms are normalised by the WHATWG URL parser
 * before a host reaches this: `http://2130706433/` has the host `127.0.0.1`.)
 */
export function parseAddress(host: string): IpAddress | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) === 0) return undefined;
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6') {
    const ipv6 = address as ipaddr.IPv6;
    if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address();
    if (isIpv4Compatible(ipv6)) return new ipaddr.IPv4(ipv6.toByteArray().slice(12));
  }
  return address;
}

/** The canonical text of an address (RFC 5952 for IPv6), for comparing two spellings. */
export function addressText(address: IpAddress): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** The class of an address: `public` (global unicast) or the rule that refuses it by default. */
export function classifyAddress(address: IpAddress): AddressClass {
  if (metadataAddresses.has(addressText(address))) return 'cloud-metadata';
  return classOfRange[address.range()] ?? 'special-purpose';
}

/** Whether `address` lies in the CIDR range `[network, prefix]` (never across IPv4 and IPv6). */
export function inRange(address: IpAddress, range: [IpAddress, number]): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}

/** Parses a CIDR range (`10.0.0.0/8`, `fd00::/8`, dotted-quad IPv4 only); throws on a malformed one. */
export function parseRange(text: string): [IpAddress, number] {
  const slash = text.indexOf('/');
  if (slash < 0 || isIP(text.slice(0, slash)) === 0 || !/^\d{1,3}$/.test(text.slice(slash + 1)))
    throw new Error(`"${text}" is not a CIDR range`);
  const [network, prefix] = ipaddr.parseCIDR(text);
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96)
    return [(network as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  return [network, prefix];
}
