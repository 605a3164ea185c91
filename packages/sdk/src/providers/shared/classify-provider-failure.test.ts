import { describe, expect, it } from 'vitest';
import { isRetryableFailure } from '../../core/failure.js';
import { failureFromHttpError, failureFromStreamError, failureFromTransportError } from './classify-provider-failure.js';

const kindOf = (status: number) => failureFromHttpError({ status, message: 'failed' }).kind;

describe('failureFromHttpError', () => {
  it('classifies by status alone (X-5)', () => {
    expect(kindOf(429)).toBe('rate-limited');
    expect(kindOf(401)).toBe('authentication');
    expect(kindOf(403)).toBe('authentication');
    expect(kindOf(408)).toBe('timeout');
    expect(kindOf(500)).toBe('server');
    expect(kindOf(503)).toBe('server');
    expect(kindOf(529)).toBe('server');
    expect(kindOf(400)).toBe('invalid-request');
    expect(kindOf(404)).toBe('invalid-request');
    expect(kindOf(413)).toBe('invalid-request');
    expect(kindOf(422)).toBe('invalid-request');
  });

  it('keeps status, code and the server-requested wait', () => {
    const failure = failureFromHttpError({
      status: 429,
      headers: new Headers({ 'retry-after': '3' }),
      code: 'rate_limit_error',
      message: '429 slow down',
      errorName: 'RateLimitError',
    });
    expect(failure).toEqual({
      kind: 'rate-limited',
      status: 429,
      code: 'rate_limit_error',
      message: '429 slow down',
      errorName: 'RateLimitError',
      retryAfterMs: 3000,
    });
    expect(isRetryableFailure(failure)).toBe(true);
  });

  it('lets the server decide retryability through x-should-retry', () => {
    const refused = failureFromHttpError({ status: 429, headers: new Headers({ 'x-should-retry': 'false' }), message: 'quota' });
    expect(isRetryableFailure(refused)).toBe(false);
    const conflict = failureFromHttpError({ status: 409, headers: new Headers({ 'x-should-retry': 'true' }), message: 'lock' });
    expect(conflict.kind).toBe('invalid-request');
    expect(isRetryableFailure(conflict)).toBe(true);
  });
});

describe('failureFromStreamError', () => {
  it('classifies by error type through the table, unknown types as server failures', () => {
    const kinds = { rate_limit_error: 'rate-limited', invalid_request_error: 'invalid-request' } as const;
    expect(failureFromStreamError({ type: 'rate_limit_error', message: 'x' }, kinds)).toMatchObject({
      kind: 'rate-limited',
      code: 'rate_limit_error',
    });
    expect(failureFromStreamError({ type: 'invalid_request_error', message: 'x' }, kinds).kind).toBe('invalid-request');
    expect(failureFromStreamError({ type: 'brand_new_error', message: 'x' }, kinds).kind).toBe('server');
    expect(failureFromStreamError({ type: 'toString', message: 'x' }, kinds).kind).toBe('server');
    expect(failureFromStreamError({ message: 'x' }, kinds)).toEqual({ kind: 'server', message: 'x' });
  });
});

describe('failureFromTransportError', () => {
  it('finds the system code along the cause chain and names the phase', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const failure = failureFromTransportError(new TypeError('terminated', { cause: socket }), 'stream');
    expect(failure).toEqual({
      kind: 'connection',
      code: 'UND_ERR_SOCKET',
      errorName: 'TypeError',
      message: 'the response stream was cut: terminated <- other side closed',
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: refused }) });
    expect(failureFromTransportError(wrapped, 'request')).toMatchObject({ kind: 'connection', code: 'ECONNREFUSED' });
    expect(failureFromTransportError(wrapped, 'request').retryable).toBeUndefined();
  });

  it('keeps a retryable stated along the cause chain (a custom fetch refusing by policy is not retried)', () => {
    const refusal = Object.assign(new Error('egress refused'), { code: 'egress-denied', retryable: false });
    const wrapped = new Error('Connection error.', { cause: refusal });
    expect(failureFromTransportError(wrapped, 'request')).toMatchObject({
      kind: 'connection',
      code: 'egress-denied',
      retryable: false,
    });
  });
});
