/** The part of a `Headers` object the parser reads; both official clients expose web `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Waits longer than a JavaScript timer can hold are not waits a run can honour. */
const longestWaitMs = 2_147_483_647;

/**
 * Reads how long the server asked us to wait before another attempt, in milliseconds, from a
 * response's headers: `retry-after-ms` first (sent by OpenAI and Anthropic, more precise), then
 * `Retry-After` as delay-seconds or as an HTTP date. Returns `undefined` when neither is present
 * or readable, so that the retry policy falls back to its own back-off (N-11). A date in the past
 * means "now" (0 ms). `now` is injectable so that date handling can be tested without a clock.
 */
export function parseRetryAfter(headers: HeaderReader | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined;
  const milliseconds = parseNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return clamp(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return clamp(seconds * 1000);
  // HTTP dates always name a day and a month; without letters `Date.parse` would read `-3` as a year.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return clamp(date - now());
}

function parseNumber(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  // Only plain non-negative decimals: `Number('')` is 0 and `parseFloat('3 days')` is 3, both wrong here.
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

function clamp(milliseconds: number): number {
  return Math.min(longestWaitMs, Math.max(0, Math.ceil(milliseconds)));
}
