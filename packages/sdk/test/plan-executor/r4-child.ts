/**
 * Child process of the R-4 test: a Plan–Executor agent whose planner delegates tasks A, B and C
 * (parallel on, 3 slots). A and C finish in two loops; B needs four, with slow tool calls. With
 * `R4_FREEZE=1` the process freezes when B's model call of loop 3 starts, for the parent to
 * SIGKILL it. Every model call and tool execution is logged to files so that the parent can tell
 * what each process did.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, tool } from '../../src/index.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const PLANNER = 'You plan and delegate to workers.';
const WORKER = 'You are a worker. Do the task with the work tool, then report.';

function taskOf(request: ModelRequest): string {
  return (request.messages[0]?.content ?? '').replace('Task:\n', '');
}

function answer(request: ModelRequest): ScriptedReply {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (request.system === PLANNER) {
    appendFileSync(environment.R4_CALLS as string, `planner ${results.length}\n`);
    if (results.length === 0) {
      return { toolCalls: ['A', 'B', 'C'].map((task) => ({ name: 'worker', arguments: { task } })) };
    }
    return { text: `Report: ${results.map((message) => message.content).join(' | ')}` };
  }
  const task = taskOf(request);
  const loop = results.length + 1;
  appendFileSync(environment.R4_CALLS as string, `worker-${task} loop-${loop} messages-${request.messages.length}\n`);
  if (task === 'B' && loop === 3 && environment.R4_FREEZE === '1') freezeHere('B in loop 3');
  const loopsNeeded = task === 'B' ? 4 : 2;
  if (loop < loopsNeeded) return { toolCalls: [{ name: 'work', arguments: { task, step: loop } }] };
  return { text: `${task} finished after ${results.map((message) => message.content).join(', ')}` };
}

const work = tool({
  name: 'work',
  description: 'Does one step of work.',
  parameters: z.object({ task: z.string(), step: z.number() }),
  execute: async ({ task, step }, context) => {
    if (task === 'B') await new Promise((resolve) => setTimeout(resolve, 40));
    appendFileSync(environment.R4_EFFECTS as string, `${context.operationId} ${task}-${step}\n`);
    return `${task}-step-${step}`;
  },
});

const store = new SqliteRunStore({ path: environment.R4_DATABASE as string });
const agent = new Agent({
  name: 'r4-team',
  mode: 'plan-executor',
  model: new ScriptedModel({ respond: answer }),
  store,
  // 1 s, not 300 ms: once in CI this process ended before B's third loop. The likely cause is a
  // 300 ms lease that ran out between two renewals on the loaded machine: the owner then stops.
  leaseMs: 1_000,
  planner: { prompt: PLANNER },
  executors: [{ name: 'worker', description: 'Does one task.', prompt: WORKER, tools: [work] }],
  execution: { parallel: true, maxParallelExecutors: 3 },
});

for (;;) {
  try {
    const result = await agent.run({ sessionId: 'r4', runId: environment.R4_RUN_ID as string, input: 'Do A, B and C.' }).result();
    report('RESULT', result);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
