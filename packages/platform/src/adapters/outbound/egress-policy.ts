import { networkInterfaces } from 'node:os';
import {
  type AddressClass,
  addressText,
  classifyAddress,
  type IpAddress,
  inRange,
  parseAddress,
  parseRange,
} from './address-class.js';
import type { OutboundAllowEntry, OutboundSettings } from './allow-list.js';
import { EgressDeniedError } from './outbound-errors.js';

/** The classes `AGENTLOOM_OUTBOUND_ALLOW_PRIVATE=true` lifts. */
const privateClasses: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link-local', 'carrier-grade-nat']);

/** One connection about to be made: the host as the URL names it, its port, and the address chosen. */
export interface Destination {
  hostname: string;
  port: number;
  address: IpAddress;
}

/** The port a URL connects to (its own, or the scheme's default). */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * The host name of the platform's own demo endpoint (demo mode only): the one name an outbound
 * request may use to reach the platform itself, and only under `demoEndpointPath`. It is a
 * `*.localhost` name (RFC 6761), so it never leaves the machine; the connector sends it to the
 * port the platform listens on, so a seeded demo tool keeps working whatever port `serve` bound.
 */
export const demoEndpointHost = 'demo.agentloom.localhost';
/** The path prefix of the platform's demo endpoint (`/api/v1/demo/…`). */
export const demoEndpointPath = '/api/v1/demo/';

/** `localhost` and `*.localhost` name the loopback interface (RFC 6761), whatever a resolver says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The egress policy (P-15.1), one per platform: which destinations a server-side request may
 * reach. By default only global unicast addresses; loopback, link-local (cloud metadata
 * included), private, carrier-grade NAT, unspecified, multicast and special-purpose addresses are
 * refused, and so is the platform's own listen address. `AGENTLOOM_OUTBOUND_ALLOW` names
 * exceptions; an entry with a port (`127.0.0.1:3001`, `mcp.internal:8080`) allows exactly that
 * destination, the platform's own included; an entry without one, or a CIDR range, allows every
 * port except the platform's own.
 *
 * `check` judges the address actually connected to (the outbound fetch calls it after DNS, at
 * connect time, for every redirect hop); `checkUrl` is the early check of a URL field when it is
 * saved: the scheme, and a host that is a literal address or `localhost`.
 */
export class EgressPolicy {
  private readonly ranges: [IpAddress, number][];
  private readonly named: Exclude<OutboundAllowEntry, { kind: 'range' }>[];
  private own: { port: number; addresses: ReadonlySet<string> } | undefined;
  private listenHost = '127.0.0.1';
  private demoEndpoint = false;

  constructor(
    readonly settings: OutboundSettings,
    listen?: { host: string; port: number },
  ) {
    this.ranges = settings.allow.flatMap((entry) => (entry.kind === 'range' ? [parseRange(entry.range)] : []));
    this.named = settings.allow.filter((entry) => entry.kind !== 'range');
    if (listen) this.listeningOn(listen.host, listen.port);
  }

  /**
   * Tells the policy where the platform listens (the serve command calls it once the port is
   * bound): that port on a loopback or unspecified address, the listen address itself or any
   * address of this machine's interfaces is the platform's own.
   */
  listeningOn(host: string, port: number): void {
    if (port === 0) return;
    this.listenHost = host;
    const addresses = new Set<string>();
    const listen = parseAddress(host);
    if (listen) addresses.add(addressText(listen));
    for (const list of Object.values(networkInterfaces()))
      for (const item of list ?? []) {
        const address = parseAddress(item.address);
        if (address) addresses.add(addressText(address));
      }
    this.own = { port, addresses };
  }

  /**
   * Opens the platform's own demo endpoint to outbound requests (the embedded default with the
   * Demo space): `http://demo.agentloom.localhost/api/v1/demo/…` reaches this platform, and
   * nothing else of it does — every other path, and every other way to name its address, stays
   * refused (`platform-address`).
   */
  enableDemoEndpoint(): void {
    this.demoEndpoint = true;
  }

  /** Whether a URL names the demo endpoint's host (then `checkDemoUrl` judges it, not `check`). */
  isDemoHost(hostname: string): boolean {
    return hostname.toLowerCase().replace(/\.$/, '') === demoEndpointHost;
  }

  /** The refusal of a URL on the demo host: demo mode off, not plain http, or a path outside the demo endpoint. */
  checkDemoUrl(url: URL): EgressDeniedError | undefined {
    const display = `${url.hostname}${url.pathname}`;
    if (
      !this.demoEndpoint ||
      url.protocol !== 'http:' ||
      !url.pathname.startsWith(demoEndpointPath) ||
      url.pathname.includes('..')
    )
      return new EgressDeniedError('platform-address', display);
    return undefined;
  }

  /** Where a connection to the demo host goes: the platform's own port (on loopback when it listens on all addresses). */
  demoTarget(): { address: string; port: number } | undefined {
    if (!this.demoEndpoint || !this.own) return undefined;
    const listen = parseAddress(this.listenHost);
    const local = !listen || ['loopback', 'unspecified'].includes(classifyAddress(listen));
    return { address: local ? '127.0.0.1' : this.listenHost, port: this.own.port };
  }

  /** The refusal of one connection, or undefined when it may be made. */
  check(destination: Destination): EgressDeniedError | undefined {
    const { hostname, port, address } = destination;
    const text = addressText(address);
    const display = `${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}:${port}`;
    const names = (entry: (typeof this.named)[number]) =>
      entry.kind === 'host' ? entry.host === hostname.toLowerCase() : entry.address === text;
    if (this.named.some((entry) => entry.port === port && names(entry))) return undefined;
    const addressClass = classifyAddress(address);
    if (
      this.own &&
      port === this.own.port &&
      (addressClass === 'loopback' || addressClass === 'unspecified' || this.own.addresses.has(text))
    )
      return new EgressDeniedError('platform-address', display);
    if (this.named.some((entry) => entry.port === undefined && names(entry))) return undefined;
    if (this.ranges.some((range) => inRange(address, range))) return undefined;
    if (addressClass === 'public') return undefined;
    if (this.settings.allowPrivate && privateClasses.has(addressClass)) return undefined;
    return new EgressDeniedError(addressClass, display);
  }

  /**
   * The check of a URL field when it is saved (a resource, a connection's base URL, a run's
   * webhook): `http`/`https` only, and a host that is a literal address (any spelling the URL
   * parser accepts) or `localhost` judged as `check` would judge its connection. A host name is
   * left to the connection-time check, since only then is its address known. A URL that does not
   * parse is left to the field's schema.
   */
  checkUrl(text: string): EgressDeniedError | undefined {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return new EgressDeniedError('scheme', `a ${url.protocol} URL`);
    if (this.isDemoHost(url.hostname)) return this.checkDemoUrl(url);
    const port = effectivePort(url);
    const literal = parseAddress(url.hostname);
    if (literal) return this.check({ hostname: url.hostname, port, address: literal });
    if (isLocalhostName(url.hostname))
      return this.check({ hostname: url.hostname, port, address: parseAddress('127.0.0.1') as IpAddress });
    return undefined;
  }
}
