import { lookup } from 'node:dns/promises';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { parseAddress } from './address-class.js';
import type { OutboundSettings } from './allow-list.js';
import { EgressPolicy, effectivePort } from './egress-policy.js';
import { EgressDeniedError, findOutboundError, OutboundLimitError } from './outbound-errors.js';

/** Resolves a host name to its addresses (the system resolver by default; tests name their own). */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

/** The bounds of every outbound call. */
export interface OutboundLimits {
  /** Opening the TCP (and TLS) connection. */
  connectTimeoutMs: number;
  /** From sending the request to the response's headers. */
  headersTimeoutMs: number;
  /** The longest silence between two pieces of the response body. */
  bodyTimeoutMs: number;
  /** The most body bytes read (after decompression); beyond, the body errors `response-too-large`. */
  maxResponseBytes: number;
  /** Redirects followed, each hop checked again; one more is `too-many-redirects`. */
  maxRedirects: number;
}

/** The documented defaults (README, docs/security.md); callers add their own total deadline. */
export const defaultOutboundLimits: OutboundLimits = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 120_000,
  bodyTimeoutMs: 300_000,
  maxResponseBytes: 32 * 1024 * 1024,
  maxRedirects: 5,
};

/** The outbound module of one platform: its policy, the one `fetch` every server-side request uses, and `close`. */
export interface Outbound {
  readonly policy: EgressPolicy;
  readonly fetch: typeof globalThis.fetch;
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

const systemResolver: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const nullBodyStatuses = new Set([101, 204, 205, 304]);
/** What a redirect to another origin keeps of the request's headers: nothing that could be a credential. */
const crossOriginHeaders = new Set(['accept', 'accept-encoding', 'accept-language', 'content-type', 'user-agent']);

/**
 * The first address of `hostname` the policy allows, resolved now: the address the socket then
 * connects to, so a name cannot resolve to one address for the check and another for the
 * connection (DNS rebinding). A literal address is judged as it is. When every address is
 * refused, the first refusal is thrown.
 */
async function allowedAddress(policy: EgressPolicy, resolveHost: ResolveHost, hostname: string, port: number) {
  const literal = parseAddress(hostname);
  if (literal) {
    const refusal = policy.check({ hostname, port, address: literal });
    if (refusal) throw refusal;
    return hostname;
  }
  let refusal: EgressDeniedError | undefined;
  for (const candidate of await resolveHost(hostname)) {
    const address = parseAddress(candidate);
    if (!address) continue;
    const denied = policy.check({ hostname, port, address });
    if (!denied) return candidate;
    refusal ??= denied;
  }
  throw refusal ?? Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
}

/** A response whose body errors `response-too-large` past `maxBytes` (the socket is cut then). */
function bounded(response: Response, url: URL, maxBytes: number): Response {
  if (!response.body || nullBodyStatuses.has(response.status)) return response;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes)
        controller.error(new OutboundLimitError('response-too-large', `The response is larger than ${maxBytes} bytes.`));
      else controller.enqueue(chunk);
    },
  });
  const limited = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(limited, 'url', { value: url.href });
  return limited;
}

/** The parts of a `fetch` call, from a URL and init or from a `Request`. */
function requestParts(input: string | URL | Request, init: RequestInit) {
  const request = input instanceof Request ? input : undefined;
  const { method, headers, body, redirect, ...rest } = init;
  return {
    url: new URL(request ? request.url : input.toString()),
    method: (method ?? request?.method ?? 'GET').toUpperCase(),
    headers: new Headers(headers ?? request?.headers),
    body: body ?? request?.body ?? undefined,
    redirect: redirect ?? request?.redirect ?? 'follow',
    rest: { ...(request ? { signal: request.signal } : {}), ...rest },
  };
}

/**
 * Creates the outbound module (P-15.1): every server-side request of the platform — HTTP tools,
 * MCP servers, hooks, model providers, webhooks, the test routes — goes through its `fetch`.
 * - Each connection is checked by the egress policy on the address actually connected to: the
 *   connector resolves the host itself, checks every address and connects to an allowed one, so
 *   DNS rebinding has no window. A refusal is an `EgressDeniedError`, thrown as it is.
 * - Redirects are followed here, at most `maxRedirects`, each hop's URL and connection checked
 *   again; a redirect to another origin drops every header but a few harmless ones. The caller's
 *   `redirect: 'manual'` gets the 3xx as it is unless it points at a refused destination (then the
 *   refusal), `'error'` an `OutboundLimitError`.
 * - Responses are bounded: connect, headers and body-silence timeouts, and `maxResponseBytes`.
 */
export function createOutbound(
  settings: OutboundSettings,
  options: { listen?: { host: string; port: number }; resolveHost?: ResolveHost; limits?: Partial<OutboundLimits> } = {},
): Outbound {
  const policy = new EgressPolicy(settings, options.listen);
  const limits = { ...defaultOutboundLimits, ...options.limits };
  const resolveHost = options.resolveHost ?? systemResolver;
  const connectSocket = buildConnector({ timeout: limits.connectTimeoutMs });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    if (policy.isDemoHost(connectOptions.hostname)) {
      // The demo host goes to the platform's own port, and only there (its URL was checked by `checkDemoUrl`).
      const target = policy.demoTarget();
      if (!target) callback(new EgressDeniedError('platform-address', connectOptions.hostname), null);
      else connectSocket({ ...connectOptions, hostname: target.address, port: String(target.port) }, callback);
      return;
    }
    allowedAddress(policy, resolveHost, connectOptions.hostname, port).then(
      // The host stays the URL's: TLS checks the certificate against the name, not the address.
      (address) => connectSocket({ ...connectOptions, hostname: address }, callback),
      (error: Error) => callback(error, null),
    );
  };
  const agent = new Agent({ connect, headersTimeout: limits.headersTimeoutMs, bodyTimeout: limits.bodyTimeoutMs });

  /** Throws the policy's refusal of a redirect target; a target that cannot be resolved is the caller's to meet. */
  const refuseDeniedRedirect = async (target: URL) => {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new EgressDeniedError('scheme', `a ${target.protocol} URL`);
    if (policy.isDemoHost(target.hostname)) {
      const refusal = policy.checkDemoUrl(target);
      if (refusal) throw refusal;
      return;
    }
    try {
      await allowedAddress(policy, resolveHost, target.hostname, effectivePort(target));
    } catch (error) {
      if (error instanceof EgressDeniedError) throw error;
    }
  };

  const outboundFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const parts = requestParts(input, init);
    let { url, method, body } = parts;
    const { headers } = parts;
    for (let hop = 0; ; hop += 1) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EgressDeniedError('scheme', `a ${url.protocol} URL`);
      const demoRefusal = policy.isDemoHost(url.hostname) ? policy.checkDemoUrl(url) : undefined;
      if (demoRefusal) throw demoRefusal;
      let response: Response;
      try {
        response = (await undiciFetch(url, {
          ...(parts.rest as object),
          method,
          headers,
          body: body as never,
          redirect: 'manual',
          dispatcher: agent,
        })) as unknown as Response;
      } catch (error) {
        throw findOutboundError(error) ?? error;
      }
      const location = redirectStatuses.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return bounded(response, url, limits.maxResponseBytes);
      if (parts.redirect === 'manual') {
        // The caller follows redirects itself (the MCP client, webhooks never): a 3xx that points
        // at a destination the policy refuses is refused here, so no caller can be led inside.
        await refuseDeniedRedirect(new URL(location, url)).catch(async (error: unknown) => {
          await response.body?.cancel().catch(() => {});
          throw error;
        });
        return bounded(response, url, limits.maxResponseBytes);
      }
      await response.body?.cancel().catch(() => {});
      if (parts.redirect === 'error')
        throw new OutboundLimitError('redirect-refused', `The server answered a redirect (HTTP ${response.status}).`);
      if (hop >= limits.maxRedirects)
        throw new OutboundLimitError('too-many-redirects', `More than ${limits.maxRedirects} redirects.`);
      const next = new URL(location, url);
      const toGet = response.status === 303 ? method !== 'GET' && method !== 'HEAD' : response.status <= 302 && method === 'POST';
      if (toGet) {
        method = 'GET';
        body = undefined;
        for (const name of ['content-type', 'content-length', 'content-encoding']) headers.delete(name);
      } else if (body instanceof ReadableStream) {
        throw new OutboundLimitError('redirect-refused', 'A streamed request body cannot be sent again to a redirect.');
      }
      if (next.origin !== url.origin)
        for (const name of [...headers.keys()]) if (!crossOriginHeaders.has(name)) headers.delete(name);
      url = next;
    }
  };
  return {
    policy,
    fetch: outboundFetch as typeof globalThis.fetch,
    close: () => agent.close(),
  };
}

/**
 * Reads at most `maxBytes` of a response body as text and cancels the rest: for callers that keep
 * only the start of an answer (a tool's result, a hook's decision, a test's status).
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
}
