/**
 * Child process of the work directory tests: runs (or resumes) a run that writes a draft into its
 * work directory, then calls `pause_here` — where, with `WORK_FREEZE=1`, it freezes for the parent
 * to SIGKILL it — then reads the draft back and answers with it. Prints `RESULT <json>`.
 */
import { z } from 'zod';
import { Agent, tool } from '../../src/index.js';
import { createWorkspace } from '../../src/sandbox/index.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const workspace = createWorkspace({ root: environment.WORK_ROOT as string, persistent: environment.WORK_PERSISTENT === '1' });
const pause = tool({
  name: 'pause_here',
  description: 'A step of the job.',
  parameters: z.object({}),
  execute: () => {
    if (environment.WORK_FREEZE === '1') {
      process.stdout.write('FROZEN pause_here\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    }
    return 'paused';
  },
});
const model = new ScriptedModel({
  respond: (request) => {
    const results = request.messages.filter((message) => message.role === 'tool');
    if (results.length === 0)
      return { toolCalls: [{ name: 'write_file', arguments: { path: 'drafts/draft.txt', content: 'from the first process' } }] };
    if (results.length === 1) return { toolCalls: [{ name: 'pause_here', arguments: {} }] };
    if (results.length === 2) return { toolCalls: [{ name: 'read_file', arguments: { path: 'drafts/draft.txt' } }] };
    return { text: results[2]?.content ?? '' };
  },
});
const store = new SqliteRunStore({ path: environment.WORK_STORE as string });
const agent = new Agent({
  name: 'work-directory',
  mode: 'react',
  model,
  prompt: 'You draft.',
  tools: [...workspace.tools, pause],
  store,
  leaseMs: 300,
  execution: { retry: { enabled: true, attempts: 2, waitMs: 20 } },
});
for (;;) {
  try {
    const result = await agent
      .run({ sessionId: 'work-session', runId: environment.WORK_RUN_ID as string, input: 'Draft it.' })
      .result();
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
