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

/**
 * Takes the "thinking" pause out of the Demo space's offline model (the window the demo's crash
 * button needs, 12 s) and publishes a new release of each of `appIds`, whose snapshot carries the
 * connection's settings: for tests that only need a demo run to finish, not to be caught mid-run.
 */
export async function skipDemoThinking(client: TestClient, spaceId: string, appIds: readonly string[]): Promise<void> {
  const listed = await client.request('GET', `/spaces/${spaceId}/model-connections`);
  const connections = (listed.body as { connections: { id: string; provider: string }[] }).connections;
  const demo = connections.find((connection) => connection.provider === 'offline-demo');
  if (!demo) throw new Error(`no offline demo connection in space ${spaceId}: ${JSON.stringify(listed.body)}`);
  const read = await client.request('GET', `/spaces/${spaceId}/model-connections/${demo.id}`);
  const { settings } = (read.body as { connection: { settings: { demoScripts?: { steps: { delayMs?: number }[] }[] } } })
    .connection;
  const demoScripts = (settings.demoScripts ?? []).map((script) => ({
    ...script,
    steps: script.steps.map(({ delayMs: _delay, ...step }) => step),
  }));
  const patched = await client.request('PATCH', `/spaces/${spaceId}/model-connections/${demo.id}`, {
    settings: { ...settings, demoScripts },
  });
  if (patched.status !== 200) throw new Error(`PATCH demo connection → ${patched.status} ${JSON.stringify(patched.body)}`);
  for (const appId of appIds) {
    const released = await client.request('POST', `/apps/${appId}/releases`, { notes: 'no thinking pause (test)' });
    if (released.status !== 201)
      throw new Error(`POST release of ${appId} → ${released.status} ${JSON.stringify(released.body)}`);
  }
}
