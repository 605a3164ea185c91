import type { HostedRunEvent, RunClient } from '@agentloom/sdk';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';

/** How often an idle stream sends a `: ping` comment (PLATFORM.md §4.4), so that proxies keep it open. */
export const pingIntervalMs = 15_000;

/**
 * Streams a run's events as Server-Sent Events: each `id:` is the SDK journal sequence, so a
 * client that reconnects with `Last-Event-ID` (or `?after=`) gets exactly the events after the
 * last one it saw, with no gap and no duplicate, even across a worker takeover (the journal is
 * the only source). The stream ends after the terminal event. A client that goes away only ends
 * its own stream: the run goes on (NOT-13).
 */
export function streamRunEvents(c: Context, runClient: RunClient, runId: string, afterSequence: number): Response {
  return streamWithPings(c, async (stream, signal) => {
    for await (const event of runClient.follow(runId, { afterSequence, signal })) {
      await stream.writeSSE({ id: String(event.sequence), event: event.type, data: JSON.stringify(eventData(event)) });
    }
  });
}

/**
 * An event stream whose `write` runs until it returns or the client goes away (then `signal`
 * aborts), with a `: ping` comment every 15 s meanwhile; what `write` throws is the caller's to
 * catch inside it. Every event stream of the platform (runs, A2A tasks) is made this way.
 */
export function streamWithPings(c: Context, write: (stream: SSEStreamingApi, signal: AbortSignal) => Promise<void>): Response {
  return streamSSE(c, async (stream) => {
    const abort = new AbortController();
    stream.onAbort(() => abort.abort());
    const ping = setInterval(() => {
      stream.write(': ping\n\n').catch(() => abort.abort());
    }, pingIntervalMs);
    try {
      await write(stream, abort.signal);
    } finally {
      clearInterval(ping);
    }
  });
}

function eventData(event: HostedRunEvent): unknown {
  return event;
}

/** The sequence to resume after: `Last-Event-ID` wins over `?after=`; 0 (everything) when neither is given. */
export function resumeSequenceOf(lastEventId: string | undefined, after: number | undefined): number | 'invalid' {
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!/^\d{1,15}$/.test(lastEventId)) return 'invalid';
    return Number(lastEventId);
  }
  return after ?? 0;
}
