import type { ModelServer } from '../../model/language-model.js';

/**
 * The endpoint a provider's base URL points at, as telemetry names it (`server.address`,
 * `server.port`): the host without IPv6 brackets, and the port, the scheme's default when the URL
 * names none. A URL that does not parse gives `undefined` (the client refuses it at the first call).
 */
export function modelServerOf(baseURL: string): ModelServer | undefined {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
  return address === '' ? undefined : { address, port };
}
