import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const headers = (values: Record<string, string>) => new Headers(values);
const now = () => Date.parse('Mon, 30 Nov 2026 11:20:00 GMT');

describe('parseRetryAfter', () => {
  it('reads Retry-After as whole or fractional seconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '0' }), now)).toBe(0);
  });

  it('reads Retry-After as an HTTP date, relative to the injected clock', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Mon, 30 Nov 2026 11:20:07 GMT' }), now)).toBe(7000);
    // A date already past means "retry now".
    expect(parseRetryAfter(headers({ 'retry-after': 'Mon, 30 Nov 2026 11:19:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms, the more precise header, when both are sent', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '1', 'retry-after-ms': '80' }), now)).toBe(80);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '12.4' }), now)).toBe(13);
  });

  it('ignores missing and unreadable values, so that the back-off applies', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '-3' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after-ms': '3 days', 'retry-after': '4' }), now)).toBe(4000);
  });

  it('caps a wait at what a timer can hold', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '99999999999' }), now)).toBe(2_147_483_647);
  });
});
