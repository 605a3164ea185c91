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
    // The events of one journal read go out in one write (one chunk, one socket write), not one
    // write per event (issue 34).
    for await (const batch of runClient.followBatches(runId, { afterSequence, signal })) {
      await stream.write(batch.map(serverSentEvent).join(''));
    }
  });
}

/**
 * One run event as a Server-Sent Event message: `event:` its type, `data:` its JSON (one line:
 * JSON text has no raw line breaks), `id:` its journal sequence.
 */
export function serverSentEvent(event: HostedRunEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.sequence}\n\n`;
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

/** The sequence to resume after: `Last-Event-ID` wins over `?after=`; 0 (everything) when neither is given. */
export function resumeSequenceOf(lastEventId: string | undefined, after: number | undefined): number | 'invalid' {
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!/^\d{1,15}$/.test(lastEventId)) return 'invalid';
    return Number(lastEventId);
  }
  return after ?? 0;
}
