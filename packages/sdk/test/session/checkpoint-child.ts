/**
 * Child process of the session checkpoint crash test (ADR 0012): runs `CHECKPOINT_RUNS` runs of one
 * session with a small context window, so that runs make session checkpoints. `CHECKPOINT_FREEZE`
 * freezes it at the first checkpoint: inside the compression call (`checkpoint-call`) or right
 * after its summary was saved (`after-checkpoint`). Run again, it resumes where it froze.
 */

import { COMPRESSION_SYSTEM_PROMPT } from '../../src/engine/agent/compression/index.js';
import { Agent, type RunStore } from '../../src/index.js';
import type { AppendRequest } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const freezeAt = environment.CHECKPOINT_FREEZE ?? '';
const store: RunStore = new SqliteRunStore({ path: environment.CHECKPOINT_DATABASE as string });
let checkpointCalls = 0;
const append = store.append.bind(store);
store.append = async (request: AppendRequest) => {
  const written = await append(request);
  if (freezeAt === 'after-checkpoint' && request.entries.some((entry) => entry.type === 'checkpoint-committed')) {
    report('CHECKPOINT-CALLS', checkpointCalls);
    freezeHere('after-checkpoint');
  }
  return written;
};
const model = new ScriptedModel({
  respond: (request) => {
    if (request.system === COMPRESSION_SYSTEM_PROMPT) {
      checkpointCalls += 1;
      if (freezeAt === 'checkpoint-call') {
        report('CHECKPOINT-CALLS', checkpointCalls);
        freezeHere('checkpoint-call');
      }
      return { text: `summary of ${request.messages[0]?.content.length} characters` };
    }
    const users = request.messages.filter((message) => message.role === 'user').map((message) => message.content);
    return { text: `answer to ${users.at(-1)}` };
  },
});
const agent = new Agent({
  name: 'checkpoint-scenario',
  mode: 'react',
  model,
  prompt: 'You answer.',
  store,
  leaseMs: 300,
  context: { historyRuns: 1, windowTokens: 160 },
});

const runs = Number(environment.CHECKPOINT_RUNS ?? '10');
for (let index = 1; index <= runs; index += 1) {
  for (;;) {
    try {
      const result = await agent.run({ sessionId: 'session', runId: `run-${index}`, input: `question ${index}` }).result();
      if (result.status !== 'succeeded') report('FAILED', result);
      break;
    } catch (error) {
      await waitOutOwner(error);
    }
  }
}
report('CHECKPOINT-CALLS', checkpointCalls);
report('LAST-REQUEST', model.requests.at(-1)?.messages);
await store.close();
