/**
 * Child process of the A2A crash tests: runs (or takes over) one run whose only remote call is a
 * delegation to an A2A agent — a Plan–Executor agent with the agent as an executor role, or a
 * workflow with it as a capability node — on the store named by `A2A_CRASH_STORE`. With
 * `A2A_CRASH_FREEZE` it freezes, for the parent to SIGKILL it:
 * - `after-send`: once the agent answered `SendMessage`, before the answer reaches the client
 *   (the task id is not journaled: the taker must reconcile with `ListTasks`);
 * - `after-task`: at the first `GetTask`, after the task id was journaled and before the answer;
 * - `at-approval`: once a remote question became an approval request of the agent run.
 * Prints `RESULT <json>` when the run ends in this process.
 */

import { z } from 'zod';
import { a2aAgent } from '../../src/capabilities/a2a/index.js';
import { Agent, END, lastValue, START, WorkflowBuilder } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { freezeHere, report, waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const freeze = environment.A2A_CRASH_FREEZE ?? '';
const task = environment.A2A_CRASH_TASK as string;
const runId = environment.A2A_CRASH_RUN_ID as string;

const observed: typeof fetch = async (input, init) => {
  const body = String(init?.body ?? '');
  if (freeze === 'after-task' && body.includes('"GetTask"')) freezeHere('task id journaled, waiting for the answer');
  const response = await fetch(input, init);
  if (freeze === 'after-send' && body.includes('"SendMessage"')) {
    await response.clone().text();
    freezeHere('SendMessage answered, task id not journaled');
  }
  return response;
};

const remote = a2aAgent({
  cardUrl: environment.A2A_CRASH_CARD_URL as string,
  name: 'remote',
  description: 'Does the task it is given.',
  fetch: observed,
  pollMs: 200,
});
const store = await openStore(environment.A2A_CRASH_STORE as string);

function start() {
  if (environment.A2A_CRASH_KIND === 'workflow') {
    const workflow = new WorkflowBuilder({
      name: 'a2a-crash',
      state: { question: lastValue(z.string()), answer: lastValue(z.string(), { default: '' }) },
    })
      .addCapabilityNode('remote', remote.tool, { input: { task: 'question' }, output: 'answer', timeoutMs: 30_000 })
      .addEdge(START, 'remote')
      .addEdge('remote', END)
      .compile({ store, leaseMs: 1_000 });
    return workflow.run({ sessionId: 'a2a-crash', runId, input: { question: task } });
  }
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result
        ? { text: `report: ${result.content}` }
        : { text: 'delegating', toolCalls: [{ name: 'remote', arguments: { task } }] };
    },
  });
  const agent = new Agent({
    name: 'a2a-crash',
    mode: 'plan-executor',
    model,
    store,
    leaseMs: 1_000,
    planner: { prompt: 'Delegate the task.' },
    executors: [remote],
    execution: { toolTimeoutMs: 30_000 },
  });
  return agent.run({ sessionId: 'a2a-crash', runId, input: 'Do it.' });
}

for (;;) {
  try {
    const run = start();
    if (freeze === 'at-approval') {
      void (async () => {
        for await (const event of run.events()) {
          if (event.type === 'approval-request') freezeHere('waiting for the approval of a remote question');
        }
      })();
    }
    const result = await run.result();
    report('RESULT', result);
    break;
  } catch (error) {
    await waitOutOwner(error);
  }
}
await store.close();
process.exit(0);
