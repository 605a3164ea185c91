/**
 * Child process of the host API test. `HOST_ROLE` says what it is:
 * - `owner`: runs (or takes over) run `HOST_RUN_ID` with a ReAct or Plan–Executor agent whose
 *   `hold` tool records each execution in `HOST_DIR/executions` and waits for `HOST_DIR/release`;
 *   prints `TOOL-START <json>` when the tool starts and `RESULT <json>` at the end;
 * - `follower`: follows the run's events from sequence 0 with `RunClient.follow`, printing
 *   `EVENT <json>` for each, then `DONE {}`;
 * - `stopper`: requests a stop with `RunClient.requestStop` and prints `STOPPED <json>`.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent, lastValue, RunClient, START, tool, type Workflow, WorkflowBuilder } from '../../src/index.js';
import { type ModelRequest, ScriptedModel } from '../../src/testing/index.js';
import { openStore } from '../crash/open-store.js';
import { waitOutOwner } from '../helpers/child-process.js';

const environment = process.env;
const runId = environment.HOST_RUN_ID as string;
const directory = environment.HOST_DIR as string;
const print = (key: string, value: unknown) => process.stdout.write(`${key} ${JSON.stringify(value)}\n`);
const store = await openStore(environment.HOST_STORE as string);
const client = new RunClient({ store, pollMs: 20, maxPollMs: 200 });

const PLANNER = 'You plan and delegate.';
const WORKER = 'You do the work with the hold tool.';

const hold = tool({
  name: 'hold',
  description: 'Does the slow part.',
  parameters: z.object({ part: z.string() }),
  execute: async ({ part }) => {
    appendFileSync(join(directory, 'executions'), `${part} ${process.pid}\n`);
    print('TOOL-START', { part });
    while (!existsSync(join(directory, 'release'))) await new Promise((resolve) => setTimeout(resolve, 20));
    return `held ${part}`;
  },
});

const hasToolResult = (request: ModelRequest) => request.messages.some((message) => message.role === 'tool');

function buildAgent(): Agent {
  const leaseMs = Number(environment.HOST_LEASE_MS);
  if (environment.HOST_MODE === 'plan-executor') {
    const model = new ScriptedModel({
      respond: (request) => {
        if (request.system === PLANNER) {
          return hasToolResult(request)
            ? { text: 'Planned and done.' }
            : { toolCalls: [{ name: 'worker', arguments: { task: 'do it' } }] };
        }
        return hasToolResult(request) ? { text: 'Worked.' } : { toolCalls: [{ name: 'hold', arguments: { part: 'executor' } }] };
      },
    });
    return new Agent({
      name: 'host-plan',
      mode: 'plan-executor',
      model,
      store,
      leaseMs,
      planner: { prompt: PLANNER },
      executors: [{ name: 'worker', description: 'Does the work.', prompt: WORKER, tools: [hold] }],
    });
  }
  const model = new ScriptedModel({
    respond: (request) =>
      hasToolResult(request) ? { text: 'Done.' } : { toolCalls: [{ name: 'hold', arguments: { part: 'react' } }] },
  });
  return new Agent({ name: 'host-react', mode: 'react', model, prompt: WORKER, tools: [hold], store, leaseMs });
}

/** A workflow whose agent node runs the ReAct agent with the held tool, then a capability node. */
function buildWorkflow() {
  const agent = buildAgent();
  const stamp = tool({
    name: 'stamp',
    description: 'Stamps.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => `[${text}]`,
  });
  return new WorkflowBuilder({
    name: 'host-flow',
    state: { question: lastValue(z.string()), answer: lastValue(z.string()), stamped: lastValue(z.string()) },
  })
    .addAgentNode('work', agent, { input: 'question', output: 'answer' })
    .addCapabilityNode('stamp', stamp, { input: { text: 'answer' }, output: 'stamped' })
    .addEdge(START, 'work')
    .addEdge('work', 'stamp')
    .compile({ store, leaseMs: Number(environment.HOST_LEASE_MS) });
}

async function ownWorkflow(workflow: Workflow<never>): Promise<void> {
  for (;;) {
    const run = workflow.run({ sessionId: `session-${runId}`, runId, input: { question: 'Do the job.' } as never });
    try {
      print('RESULT', await run.result());
      return;
    } catch (error) {
      await waitOutOwner(error);
    }
  }
}

switch (environment.HOST_ROLE) {
  case 'owner': {
    if (environment.HOST_MODE === 'workflow') {
      await ownWorkflow(buildWorkflow() as unknown as Workflow<never>);
      break;
    }
    const agent = buildAgent();
    for (;;) {
      const run = agent.run({ sessionId: `session-${runId}`, runId, input: 'Do the job.' });
      try {
        print('RESULT', await run.result());
        break;
      } catch (error) {
        await waitOutOwner(error);
      }
    }
    break;
  }
  case 'follower': {
    for await (const event of client.follow(runId, { afterSequence: 0 })) print('EVENT', event);
    print('DONE', {});
    break;
  }
  case 'stopper':
    print('STOPPED', await client.requestStop(runId, { reason: 'the user pressed stop' }));
    break;
  default:
    throw new Error(`unknown role ${environment.HOST_ROLE}`);
}
await store.close();
