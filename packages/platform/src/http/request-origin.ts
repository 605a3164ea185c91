import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import proxyAddress from 'proxy-addr';
import type { PlatformConfig } from '../config/index.js';
import type { PlatformEnvironment } from './services.js';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Compiles `AGENTLOOM_TRUSTED_PROXIES` (addresses, CIDR ranges, or proxy-addr's names
 * `loopback`, `linklocal`, `uniquelocal`) into proxy-addr's trust function. An empty list trusts
 * nobody. Throws proxy-addr's `TypeError` for an entry it cannot read (the configuration reports it).
 */
export function compileTrustedProxies(entries: readonly string[]): TrustFunction {
  return entries.length === 0 ? () => false : proxyAddress.compile([...entries]);
}

const compiled = new WeakMap<PlatformConfig, TrustFunction>();

function trustOf(config: PlatformConfig): TrustFunction {
  let trust = compiled.get(config);
  if (!trust) {
    trust = compileTrustedProxies(config.trustedProxies ?? []);
    compiled.set(config, trust);
  }
  return trust;
}

/** The peer that opened the TCP connection (`@hono/node-server` passes the Node request as `env.incoming`). */
function socketAddressOf(c: Context<PlatformEnvironment>): string | undefined {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

/**
 * The client's address (P-15.3): the socket's peer, unless that peer is a trusted proxy; then
 * `X-Forwarded-For` is read from the right, hop by hop, while each hop is trusted (proxy-addr).
 * A client that sends its own `X-Forwarded-For` to a server that trusts no proxy changes nothing.
 */
export function clientAddressOf(c: Context<PlatformEnvironment>): string | undefined {
  const socketAddress = socketAddressOf(c);
  if (!socketAddress) return undefined;
  const request = {
    socket: { remoteAddress: socketAddress },
    headers: { 'x-forwarded-for': c.req.header('x-forwarded-for') ?? '' },
  } as unknown as IncomingMessage;
  const address = proxyAddress(request, trustOf(c.get('services').config));
  // One client, one key: an IPv4 peer seen by a dual-stack listener (`::ffff:192.0.2.1`) is counted as itself.
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  return mapped && ipaddr.IPv4.isValidFourPartDecimal(mapped) ? mapped : address;
}

/**
 * Whether the client reached us over HTTPS: a TLS connection to this server, or a trusted proxy
 * (the socket's peer) saying so in `X-Forwarded-Proto` (its first value, as Express reads it).
 */
export function isHttpsRequest(c: Context<PlatformEnvironment>): boolean {
  // The request's URL is absolute (its scheme first): its prefix says it without parsing it, on every answer.
  if (/^https:/i.test(c.req.url)) return true;
  const socketAddress = socketAddressOf(c);
  if (!socketAddress || !trustOf(c.get('services').config)(socketAddress, 0)) return false;
  const forwarded = c.req.header('x-forwarded-proto') ?? '';
  return forwarded.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** Whether cookies get `Secure`: `AGENTLOOM_COOKIE_SECURE=true|false`, or (`auto`, the default) when the request is HTTPS. */
export function cookieIsSecure(c: Context<PlatformEnvironment>): boolean {
  const setting = c.get('services').config.cookieSecure ?? 'auto';
  return setting === 'auto' ? isHttpsRequest(c) : setting;
}
