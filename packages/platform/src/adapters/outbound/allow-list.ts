import { isIP } from 'node:net';
import { addressText, parseAddress, parseRange } from './address-class.js';

/**
 * One destination an operator allowed (`AGENTLOOM_OUTBOUND_ALLOW`): a host name or an address,
 * on every port or on one, or a CIDR range (every port).
 */
export type OutboundAllowEntry =
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'address'; address: string; port?: number }
  | { kind: 'range'; range: string };

/** The outbound settings of an instance (P-15.1). */
export interface OutboundSettings {
  /** Destinations allowed even when their address class is refused by default. */
  allow: readonly OutboundAllowEntry[];
  /**
   * `AGENTLOOM_OUTBOUND_ALLOW_PRIVATE=true`: loopback, private, link-local and carrier-grade NAT
   * addresses are allowed (a trusted single-user install). Cloud metadata services, the
   * platform's own address and the unspecified, multicast and special-purpose addresses stay refused.
   */
  allowPrivate: boolean;
}

/** The default: nothing but global unicast destinations. */
export const defaultOutboundSettings: OutboundSettings = { allow: [], allowPrivate: false };

/** Parses a port (1–65535) or answers undefined. */
function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * A host as a URL would carry it (lower case, punycode, IPv4 in dotted form: `2130706433` is
 * `127.0.0.1`), or undefined when it is not a bare host.
 */
function normaliseHost(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}/`);
    if (url.username || url.password || url.port || url.pathname !== '/' || url.search || url.hash || !url.hostname)
      return undefined;
    return url.hostname;
  } catch {
    return undefined;
  }
}

/** Parses one entry: `host`, `host:port`, `[v6]`, `[v6]:port`, a bare IPv6 address, or a CIDR range. */
function parseEntry(text: string): OutboundAllowEntry | undefined {
  if (text.includes('/')) {
    try {
      parseRange(text);
      return { kind: 'range', range: text };
    } catch {
      return undefined;
    }
  }
  let host = text;
  let port: number | undefined;
  if (isIP(text) !== 6) {
    const match = /^(\[[^\]]+\]|[^:[\]]+)(?::([^:]*))?$/.exec(text);
    if (!match) return undefined;
    host = match[1] as string;
    if (match[2] !== undefined) {
      port = parsePort(match[2]);
      if (port === undefined) return undefined;
    }
  }
  const hostname = isIP(host) === 6 ? `[${host}]` : normaliseHost(host);
  if (!hostname) return undefined;
  const address = parseAddress(hostname);
  const portPart = port !== undefined ? { port } : {};
  return address
    ? { kind: 'address', address: addressText(address), ...portPart }
    : { kind: 'host', host: hostname, ...portPart };
}

/**
 * Parses `AGENTLOOM_OUTBOUND_ALLOW`: comma-separated `host`, `host:port` or CIDR entries (e.g.
 * `127.0.0.1:3001,mcp.internal,10.0.0.0/8`). Every malformed entry is one problem sentence.
 */
export function parseOutboundAllow(text: string | undefined): { entries: OutboundAllowEntry[]; problems: string[] } {
  const entries: OutboundAllowEntry[] = [];
  const problems: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const entry = parseEntry(item);
    if (entry) entries.push(entry);
    else
      problems.push(
        `AGENTLOOM_OUTBOUND_ALLOW entry "${item}" must be a host, host:port ([IPv6]:port) or CIDR range (e.g. 127.0.0.1:3001, mcp.internal, 10.0.0.0/8).`,
      );
  }
  return { entries, problems };
}
