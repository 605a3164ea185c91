/**
 * Child process of the session crash tests. `SESSION_SCENARIO`:
 * - `compression`: a ReAct run whose context is compressed; it can freeze inside the compression
 *   call (`compression-call`) or right after the summary is saved (`after-compression`).
 * - `carry`: runs `SESSION_INPUT` in the session; it can freeze right after the run is created
 *   (`after-create`), before anything else happens.
 */
import { z } from 'zod';
import { COMPRESSION_SYSTEM_PROMPT } from '../../src/engine/agent/compression/index.js';
import { Agent, type RunStore, tool } from '../../src/index.js';
import type { AcquireRequest, AppendRequest } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const freezeAt = environment.SESSION_FREEZE ?? '';
const store: RunStore = new SqliteRunStore({ path: environment.SESSION_DATABASE as string });
const acquire = store.acquire.bind(store);
const append = store.append.bind(store);
store.acquire = async (request: AcquireRequest) => {
  const answer = await acquire(request);
  if (freezeAt === 'after-create' && answer.outcome === 'created') freezeHere('after-create');
  return answer;
};
store.append = async (request: AppendRequest) => {
  const written = await append(request);
  if (freezeAt === 'after-compression' && request.entries.some((entry) => entry.type === 'compression-committed')) {
    freezeHere('after-compression');
  }
  return written;
};

const note = tool({
  name: 'note',
  description: 'Takes a note.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `note ${n}`,
});
const model = new ScriptedModel({
  respond: (request) => {
    if (request.system === COMPRESSION_SYSTEM_PROMPT) {
      if (freezeAt === 'compression-call') freezeHere('compression-call');
      return { text: `summary covering ${request.messages[0]?.content.length} characters` };
    }
    const users = request.messages.filter((message) => message.role === 'user').map((message) => message.content);
    if (environment.SESSION_SCENARIO === 'carry') return { text: `saw ${users.join(' | ')}` };
    const last = request.messages.at(-1);
    const notes = last?.role === 'tool' ? Number(last.content.slice(5)) + 1 : 0;
    return notes >= 6 ? { text: `done after ${notes} notes` } : { toolCalls: [{ name: 'note', arguments: { n: notes } }] };
  },
});
const agent = new Agent({
  name: 'session-scenario',
  mode: 'react',
  model,
  prompt: 'You take notes.',
  tools: [note],
  store,
  leaseMs: 300,
  context: { historyRuns: 0, windowTokens: 100, countTokens: ({ messages }) => messages.length * 10 },
});

for (;;) {
  try {
    const result = await agent
      .run({ sessionId: 'session', runId: environment.SESSION_RUN_ID as string, input: environment.SESSION_INPUT as string })
      .result();
    report('RESULT', result);
    report(
      'USER-MESSAGES',
      model.requests
        .at(-1)
        ?.messages.filter((message) => message.role === 'user')
        .map((message) => message.content),
    );
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
