import { readFileSync } from 'node:fs';

/** A recorded HTTP response: status, headers and the body exactly as the provider sent it. */
export interface HttpFixture {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that describe one particular transfer; the replay server frames the body itself. */
const framingHeaders = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Reads a recorded response kept as a file: a status line (`HTTP/1.1 429 Too Many Requests`),
 * header lines, a blank line, then the raw body (an SSE stream or a JSON error). Keeping the whole
 * response in one readable file lets a fixture show what the API really sends, headers such as
 * `retry-after` included. Lines end with `\n`; a `\r\n` file is read the same way.
 */
export function readHttpFixture(path: string | URL): HttpFixture {
  const text = readFileSync(path, 'utf8').replaceAll('\r\n', '\n');
  const split = text.indexOf('\n\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 2);
  const [statusLine = '', ...headerLines] = head.split('\n');
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`${path}: the first line must be a status line, got "${statusLine}"`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`${path}: not a header line: "${line}"`);
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!framingHeaders.has(name)) headers[name] = line.slice(colon + 1).trim();
  }
  return { status, headers, body };
}

/**
 * The parsed `data` of every event in a recorded SSE body (`[DONE]` left out), so that a test
 * can take ids, signatures and usage from the recording instead of repeating them by hand.
 */
export function readEventData(fixture: HttpFixture): Record<string, unknown>[] {
  const data: Record<string, unknown>[] = [];
  for (const line of fixture.body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const payload = line.slice('data:'.length).trim();
    if (payload !== '[DONE]') data.push(JSON.parse(payload) as Record<string, unknown>);
  }
  return data;
}

/** The same recorded response with only its first `count` SSE events: a stream that ends cleanly, too early. */
export function truncateEvents(fixture: HttpFixture, count: number): HttpFixture {
  const events = fixture.body.split(/(?<=\n\n)/).filter((event) => event.trim() !== '');
  return { ...fixture, body: events.slice(0, count).join('') };
}
