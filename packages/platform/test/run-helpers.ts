import { countsSince, queryCounts } from '../../../test/support/query-counter.js';
import type { TestClient } from './harness.js';

/** One parsed Server-Sent Event. */
export interface ParsedEvent {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

/** Parses an SSE text into events; `: ping` comments are counted apart. */
export function parseSse(text: string): { events: ParsedEvent[]; pings: number } {
  const events: ParsedEvent[] = [];
  let pings = 0;
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    if (block.startsWith(':')) {
      pings += 1;
      continue;
    }
    const event: ParsedEvent = { id: undefined, event: undefined, data: undefined };
    for (const line of block.split('\n')) {
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') event.data = JSON.parse(value);
    }
    events.push(event);
  }
  return { events, pings };
}

/** A run as `GET /runs/:runId` shows it (the fields tests read). */
export interface RunBody {
  id: string;
  sessionId: string;
  releaseId: string | null;
  status: string;
  reason: string | null;
  stopCause: string | null;
  output: string | null;
  owner: { ownerId: string; live: boolean } | null;
}

/** Polls `GET /runs/:runId` until the run is terminal (bounded by the test's timeout, never asserted on time). */
export async function waitForTerminal(client: TestClient, runId: string): Promise<RunBody> {
  for (;;) {
    const { status, body } = await client.request('GET', `/runs/${runId}`);
    if (status !== 200) throw new Error(`GET /runs/${runId} → ${status} ${JSON.stringify(body)}`);
    const run = (body as { run: RunBody }).run;
    if (['succeeded', 'failed', 'stopped'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until `condition` holds, polling (bounded by the test's timeout). */
export async function waitUntil(condition: () => boolean | Promise<boolean>, pollMs = 20): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, pollMs));
}

/**
 * Waits until this process ran no statement (tables, both engines) for `quietMs`; the statement
 * counter (`installQueryCounter`) must be installed.
 */
export async function untilQuiet(quietMs = 200): Promise<void> {
  await waitUntil(async () => {
    const before = queryCounts();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const during = countsSince(before);
    return during.sqlite + during.postgres === 0;
  });
}
