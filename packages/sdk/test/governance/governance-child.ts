/**
 * Child process of the governance crash tests. `GOVERNANCE_SCENARIO`:
 * - `review`: a PreToolUse hook rewrites `draft.sql` to `reviewed.sql`; freezes right after the
 *   tool's result is saved (`GOVERNANCE_FREEZE=after-tool`).
 * - `approval`: every call needs approval and nobody answers in-process; freezes right after the
 *   approval request is saved (`GOVERNANCE_FREEZE=after-request`).
 * Hook calls and tool executions are counted in files.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, tool } from '../../src/index.js';
import type { AppendRequest } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const freezeAt = environment.GOVERNANCE_FREEZE ?? '';
const store = new SqliteRunStore({ path: environment.GOVERNANCE_DATABASE as string });
const append = store.append.bind(store);
store.append = async (request: AppendRequest) => {
  const written = await append(request);
  const types = request.entries.map((entry) => entry.type);
  if (freezeAt === 'after-tool' && types.includes('operation-finished')) freezeHere('after-tool');
  if (freezeAt === 'after-request' && types.includes('approval-requested')) freezeHere('after-request');
  return written;
};

const runSql = tool({
  name: 'run_sql',
  description: 'Runs a SQL file.',
  parameters: z.object({ file: z.string() }),
  execute: ({ file }) => {
    appendFileSync(environment.GOVERNANCE_EFFECTS as string, `tool ${file}\n`);
    return `ran ${file}`;
  },
});
const model = new ScriptedModel({
  respond: (request) => {
    const result = request.messages.find((message) => message.role === 'tool');
    return result
      ? { text: `tool said: ${result.content}` }
      : { toolCalls: [{ name: 'run_sql', arguments: { file: 'draft.sql' } }] };
  },
});
const agent = new Agent({
  name: 'governed',
  mode: 'react',
  model,
  prompt: 'You run reviewed SQL only.',
  tools: [runSql],
  store,
  // 1 s, not 300 ms: once in CI this process ended before its freeze point, as the R-4 child did
  // (`r4-child.ts`): on the loaded machine a 300 ms lease can run out between two renewals, and
  // the owner then stops.
  leaseMs: 1_000,
  ...(environment.GOVERNANCE_SCENARIO === 'review'
    ? {
        hooks: {
          PreToolUse: [
            {
              name: 'review',
              handle: (subject) => {
                appendFileSync(environment.GOVERNANCE_EFFECTS as string, 'hook review\n');
                const file = (subject.arguments as { file: string }).file;
                return { modify: { arguments: { file: file.replace('draft', 'reviewed') } } };
              },
            },
          ],
        },
      }
    : { permissions: { default: 'ask' as const } }),
});

for (;;) {
  try {
    const result = await agent
      .run({ sessionId: 'governance', runId: environment.GOVERNANCE_RUN_ID as string, input: 'Run the migration.' })
      .result();
    report('RESULT', result);
    report(
      'REQUESTS',
      model.requests.map((request) => request.messages),
    );
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
