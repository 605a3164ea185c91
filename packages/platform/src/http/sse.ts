import type { HostedRunEvent, RunClient } from '@agentloom/sdk';
import type { Context } from 'hono';
import type { PlatformEnvironment } from './services.js';

/** How often an idle stream sends a `: ping` comment (PLATFORM.md §4.4), so that proxies keep it open. */
export const pingIntervalMs = 15_000;

/** Chunks an event stream holds before `write` waits for the client to take some (back-pressure). */
const queuedChunks = 16;

/** What a stream's writer gets: raw text, or one Server-Sent Event message. */
export interface EventStreamWriter {
  /** Sends `text` as it is (already formatted messages or a comment); waits while the client lags. */
  write(text: string): Promise<void>;
  /** Sends one message: `event:` and `id:` when given (no line breaks in them), `data:` one line per line of `data`. */
  writeSSE(message: { data: string; event?: string; id?: string }): Promise<void>;
}

/**
 * Streams a run's events as Server-Sent Events: each `id:` is the SDK journal sequence, so a
 * client that reconnects with `Last-Event-ID` (or `?after=`) gets exactly the events after the
 * last one it saw, with no gap and no duplicate, even across a worker takeover (the journal is
 * the only source). The stream ends after the terminal event. A client that goes away only ends
 * its own stream: the run goes on (NOT-13).
 */
export async function streamRunEvents(c: Context, runClient: RunClient, runId: string, afterSequence: number): Promise<Response> {
  // The run is checked before the stream opens (a 404 rather than an empty stream), by the same
  // read the tail starts from.
  const stop = new AbortController();
  const batches = await runClient.openFollow(runId, { afterSequence, signal: stop.signal });
  return streamWithPings(c, async (stream, signal) => {
    signal.addEventListener('abort', () => stop.abort(), { once: true });
    // The events of one journal read go out in one write (one chunk, one socket write), not one
    // write per event (issue 34).
    for await (const batch of batches) await stream.write(batch.map(serverSentEvent).join(''));
  });
}

/**
 * One run event as a Server-Sent Event message: `event:` its type, `data:` its JSON (one line:
 * JSON text has no raw line breaks), `id:` its journal sequence.
 */
export function serverSentEvent(event: HostedRunEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.sequence}\n\n`;
}

/** One message in the event-stream format; refuses an `event` or `id` that would break its line. */
function formatMessage({ data, event, id }: { data: string; event?: string; id?: string }): string {
  if (/[\r\n]/.test(event ?? '') || /[\r\n]/.test(id ?? ''))
    throw new Error('An event stream id or event name has no line break.');
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `${event !== undefined ? `event: ${event}\n` : ''}${lines.join('')}${id !== undefined ? `id: ${id}\n` : ''}\n`;
}

/**
 * An event stream whose `write` runs until it returns or the client goes away (then `signal`
 * aborts), with a `: ping` comment every 15 s meanwhile; what `write` throws ends the stream and
 * is logged, so the caller catches inside it what it wants to answer. Every event stream of the
 * platform (runs, A2A tasks) is made this way.
 *
 * One `ReadableStream` the writer feeds directly (Hono's `streamSSE` builds three: a transform
 * stream and a second readable over it, with an encoder per write; issue 34), waiting when
 * `queuedChunks` are queued and the client has not taken them.
 */
export function streamWithPings(c: Context, write: (stream: EventStreamWriter, signal: AbortSignal) => Promise<void>): Response {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  // Writers waiting for the client to take queued chunks (a ping may wait beside an event write).
  let waiting: (() => void)[] = [];
  const wakeWriters = () => {
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull: wakeWriters,
      cancel() {
        abort.abort();
        wakeWriters();
      },
    },
    new CountQueuingStrategy({ highWaterMark: queuedChunks }),
  );
  const writer: EventStreamWriter = {
    async write(text) {
      if (abort.signal.aborted || !controller) return;
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => waiting.push(resolve));
    },
    writeSSE(message) {
      return writer.write(formatMessage(message));
    },
  };
  const ping = setInterval(() => {
    writer.write(': ping\n\n').catch(() => abort.abort());
  }, pingIntervalMs);
  void write(writer, abort.signal)
    .catch((error: unknown) => {
      if (abort.signal.aborted) return;
      (c as Context<PlatformEnvironment>)
        .get('services')
        ?.logger.error(
          { requestId: c.get('requestId'), err: { name: (error as Error).name, message: (error as Error).message } },
          'event stream failed',
        );
    })
    .finally(() => {
      clearInterval(ping);
      if (!abort.signal.aborted) controller?.close();
    });
  c.header('Transfer-Encoding', 'chunked');
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('Connection', 'keep-alive');
  return c.newResponse(body);
}

/** The sequence to resume after: `Last-Event-ID` wins over `?after=`; 0 (everything) when neither is given. */
export function resumeSequenceOf(lastEventId: string | undefined, after: number | undefined): number | 'invalid' {
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!/^\d{1,15}$/.test(lastEventId)) return 'invalid';
    return Number(lastEventId);
  }
  return after ?? 0;
}
