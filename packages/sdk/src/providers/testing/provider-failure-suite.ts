import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError } from '../../core/errors/index.js';
import { callModel } from '../../model/call-model.js';
import type { LanguageModel, ModelRequest } from '../../model/language-model.js';
import { type HttpFixture, truncateEvents } from './http-fixture.js';
import { caught, recordAttemptFailures, replayCallOptions } from './replay-harness.js';
import { type ReplayScript, type ReplayServer, startReplayServer } from './replay-server.js';

/** The recorded responses and facts about them that the failure suite replays for one provider. */
export interface ProviderFailureSuiteOptions {
  /** Shown in the suite's name. */
  name: string;
  /** Creates the adapter under test, pointed at the replay server. */
  createModel: (serverURL: string) => LanguageModel;
  fixtures: {
    /** A complete plain text answer whose text is `text`. */
    plainText: HttpFixture;
    /** A 429 carrying a `Retry-After` (or `retry-after-ms`) of `retryAfterMs`. */
    rateLimited: HttpFixture;
    /** A 500. */
    serverError: HttpFixture;
    /** A 401 or 403. */
    authentication: HttpFixture;
    /** A stream that starts, sends some text, then an error event. */
    midStreamError: HttpFixture;
  };
  text: string;
  retryAfterMs: number;
  /** After this many events of `plainText`, exactly `partialText` has been sent. */
  eventsBeforePartialText: number;
  partialText: string;
  /** The failure code the mid-stream error event carries. */
  midStreamErrorCode: string;
}

const request: ModelRequest = { system: 'You are tested.', messages: [{ role: 'user', content: 'Say hello.' }], tools: [] };
const retryOn = { enabled: true, attempts: 2, waitMs: 10 };

/** How each exchange ended, once the server has seen every connection close (the close may trail the client's result). */
async function settledOutcomes(server: ReplayServer): Promise<string[]> {
  await Promise.all(server.requests.map((recorded) => recorded.settled));
  return server.requests.map((recorded) => recorded.outcome);
}

/**
 * The failure cases every adapter must handle the same way through the connection layer
 * (`callModel`): rate limits with `Retry-After`, server errors, a connection cut mid-stream, a
 * stall, a slow first byte, a stop, the deadline. Each test asserts the outcome, the typed
 * failure, the number of requests the server saw and, where it matters, the waits — as lower
 * bounds or through an injected clock, never as tight wall-clock checks.
 */
export function describeProviderFailures(options: ProviderFailureSuiteOptions): void {
  describe(`${options.name} failures through callModel`, () => {
    let server: ReplayServer | undefined;
    const start = async (script: ReplayScript) => {
      server = await startReplayServer(script);
      return { server, model: options.createModel(server.baseURL) };
    };
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    const { fixtures } = options;

    it('honours Retry-After on a 429 and succeeds on the second attempt when retry is on (N-11)', async () => {
      const { server, model } = await start([{ fixture: fixtures.rateLimited }, { fixture: fixtures.plainText }]);
      const recorder = recordAttemptFailures();
      const result = await callModel(model, request, replayCallOptions({ retry: { ...retryOn, waitMs: 30_000 }, ...recorder }));
      expect(result).toMatchObject({ attempt: 2, finishReason: 'stop', message: { role: 'assistant', content: options.text } });
      expect(server.requests).toHaveLength(2);
      expect(recorder.failures).toMatchObject([
        { attempt: 1, failure: { kind: 'rate-limited', status: 429, retryAfterMs: options.retryAfterMs }, partialText: '' },
      ]);
      // The server's wait replaced the policy's 30 s, and the client really waited it out.
      expect(recorder.failures[0]?.retryWaitMs).toBe(options.retryAfterMs);
      const [first, second] = server.requests;
      expect((second?.receivedAt ?? 0) - (first?.respondedAt ?? 0)).toBeGreaterThanOrEqual(options.retryAfterMs - 2);
    });

    it('fails a 429 at once, with its Retry-After, when retry is off', async () => {
      const { server, model } = await start([{ fixture: fixtures.rateLimited }]);
      const error = await caught(() => callModel(model, request, replayCallOptions()));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect((error as ModelCallError).failure).toMatchObject({
        kind: 'rate-limited',
        status: 429,
        retryAfterMs: options.retryAfterMs,
      });
      expect(server.requests).toHaveLength(1);
    });

    it('never retries when the Retry-After wait would end past the run deadline (X-10)', async () => {
      const { server, model } = await start([{ fixture: fixtures.rateLimited }, { fixture: fixtures.plainText }]);
      const recorder = recordAttemptFailures();
      const clock = { now: 1_000 };
      const error = await caught(() =>
        callModel(
          model,
          request,
          replayCallOptions({ retry: retryOn, now: () => clock.now, deadlineAt: clock.now + options.retryAfterMs, ...recorder }),
        ),
      );
      expect((error as ModelCallError).failure.kind).toBe('rate-limited');
      expect(recorder.failures).toHaveLength(1);
      expect(recorder.failures[0]?.retryWaitMs).toBeUndefined();
      expect(server.requests).toHaveLength(1);
    });

    it('classifies a 500 as a server failure, and retries it when retry is on', async () => {
      const failing = await start([{ fixture: fixtures.serverError }]);
      const error = await caught(() => callModel(failing.model, request, replayCallOptions()));
      expect((error as ModelCallError).failure).toMatchObject({ kind: 'server', status: 500 });
      expect(failing.server.requests).toHaveLength(1);
      await failing.server.close();

      const { server, model } = await start([{ fixture: fixtures.serverError }, { fixture: fixtures.plainText }]);
      const result = await callModel(model, request, replayCallOptions({ retry: retryOn }));
      expect(result).toMatchObject({ attempt: 2, message: { content: options.text } });
      expect(server.requests).toHaveLength(2);
    });

    it('never retries refused credentials, even with retry on', async () => {
      const { server, model } = await start([{ fixture: fixtures.authentication }, { fixture: fixtures.plainText }]);
      const error = await caught(() => callModel(model, request, replayCallOptions({ retry: retryOn })));
      expect((error as ModelCallError).failure.kind).toBe('authentication');
      expect(server.requests).toHaveLength(1);
    });

    it('reports a connection cut mid-stream as a connection failure, keeping the partial text out of the answer (S-9)', async () => {
      const { server, model } = await start([
        { fixture: fixtures.plainText, cutAfterEvents: options.eventsBeforePartialText },
        { fixture: fixtures.plainText },
      ]);
      const recorder = recordAttemptFailures();
      const result = await callModel(model, request, replayCallOptions({ retry: retryOn, ...recorder }));
      expect(recorder.failures).toMatchObject([
        { attempt: 1, failure: { kind: 'connection' }, partialText: options.partialText },
      ]);
      expect(await settledOutcomes(server)).toEqual(['cut-by-server', 'complete']);
      // The second attempt's answer, whole and alone: nothing of the cut attempt is spliced in.
      expect(result.message.content).toBe(options.text);
      expect(result.attempt).toBe(2);
    });

    it('fails a cut stream as a connection failure when retry is off', async () => {
      const { server, model } = await start([{ fixture: fixtures.plainText, cutAfterEvents: options.eventsBeforePartialText }]);
      const error = await caught(() => callModel(model, request, replayCallOptions()));
      expect((error as ModelCallError).failure.kind).toBe('connection');
      expect((error as ModelCallError).partialText).toBe(options.partialText);
      expect(server.requests).toHaveLength(1);
    });

    it('fails a stream that ends cleanly before its finish as incomplete output, never as an answer (S-8, S-9)', async () => {
      const truncated = truncateEvents(fixtures.plainText, options.eventsBeforePartialText);
      const { server, model } = await start([{ fixture: truncated }]);
      const error = await caught(() => callModel(model, request, replayCallOptions()));
      expect((error as ModelCallError).failure.kind).toBe('incomplete-output');
      expect((error as ModelCallError).partialText).toBe(options.partialText);
      expect(await settledOutcomes(server)).toEqual(['complete']);
    });

    it('detects a stream that stops sending and ends the request (stall timeout)', async () => {
      const { server, model } = await start([{ fixture: fixtures.plainText, stallAfterEvents: options.eventsBeforePartialText }]);
      const recorder = recordAttemptFailures();
      const error = await caught(() => callModel(model, request, replayCallOptions({ stallTimeoutMs: 60, ...recorder })));
      expect((error as ModelCallError).failure.kind).toBe('stalled');
      expect(recorder.failures).toMatchObject([{ attempt: 1, failure: { kind: 'stalled' }, partialText: options.partialText }]);
      expect(await settledOutcomes(server)).toEqual(['closed-by-client']);
    });

    it('times out a slow first byte, then succeeds on the second attempt when retry is on (C-11)', async () => {
      const { server, model } = await start([
        { fixture: fixtures.plainText, firstByteDelayMs: Number.POSITIVE_INFINITY },
        { fixture: fixtures.plainText },
      ]);
      const recorder = recordAttemptFailures();
      const result = await callModel(
        model,
        request,
        replayCallOptions({ firstOutputTimeoutMs: 150, retry: retryOn, ...recorder }),
      );
      expect(recorder.failures).toMatchObject([{ attempt: 1, failure: { kind: 'timeout', code: 'first-output-timeout' } }]);
      expect(result).toMatchObject({ attempt: 2, message: { content: options.text } });
      expect(await settledOutcomes(server)).toEqual(['closed-by-client', 'complete']);
    });

    it('times out a slow first byte for good when retry is off', async () => {
      const { server, model } = await start([{ fixture: fixtures.plainText, firstByteDelayMs: Number.POSITIVE_INFINITY }]);
      const error = await caught(() => callModel(model, request, replayCallOptions({ firstOutputTimeoutMs: 60 })));
      expect((error as ModelCallError).failure).toMatchObject({ kind: 'timeout', code: 'first-output-timeout' });
      expect(server.requests).toHaveLength(1);
    });

    it('aborts on a stop without retrying, and ends the HTTP request (X-3, X-10)', async () => {
      const { server, model } = await start([
        { fixture: fixtures.plainText, stallAfterEvents: options.eventsBeforePartialText },
        { fixture: fixtures.plainText },
      ]);
      const control = new AbortController();
      const stop = new Error('stopped by the user');
      const pending = callModel(model, request, replayCallOptions({ signal: control.signal, retry: retryOn }));
      await server.waitForRequest(0);
      control.abort(stop);
      await expect(pending).rejects.toBe(stop);
      expect(await settledOutcomes(server)).toEqual(['closed-by-client']);
    });

    it('classifies an error event inside a started stream by its error type', async () => {
      const { server, model } = await start([{ fixture: fixtures.midStreamError }]);
      const error = await caught(() => callModel(model, request, replayCallOptions()));
      expect((error as ModelCallError).failure).toMatchObject({ kind: 'server', code: options.midStreamErrorCode });
      expect((error as ModelCallError).partialText).toBe('Let me think about');
      expect(server.requests).toHaveLength(1);
    });

    it('reports a refused connection as a connection failure with its system code', async () => {
      const { server, model } = await start([]);
      await server.close();
      const error = await caught(() => callModel(model, request, replayCallOptions()));
      expect((error as ModelCallError).failure).toMatchObject({ kind: 'connection', code: 'ECONNREFUSED' });
    });
  });
}
