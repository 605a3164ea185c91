import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countingStore, deferred } from '../../../../test/workflow/workflow-fixtures.js';
import { tool } from '../../../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../../../core/errors/index.js';
import type { ModelRequest } from '../../../model/language-model.js';
import { MemoryRunStore } from '../../../store/memory/memory-run-store.js';
import type { RunStore } from '../../../store/run-store.js';
import { ScriptedModel } from '../../../testing/scripted-model.js';
import { Agent } from '../../agent/agent.js';
import { END, START } from '../channels/channel-names.js';
import { appendList, lastValue } from '../channels/state-fields.js';
import { WorkflowBuilder } from '../graph/workflow-builder.js';
import { innerRunIdOf } from './agent-node.js';

const toolResults = (request: ModelRequest) => request.messages.filter((message) => message.role === 'tool');

/** A ReAct agent that calls `work` twice in one batch, then answers with what it got. */
function workingAgent(name: string, store: RunStore, work: ReturnType<typeof tool>, model?: ScriptedModel) {
  const scripted =
    model ??
    new ScriptedModel({
      respond: (request) =>
        toolResults(request).length === 0
          ? { toolCalls: [1, 2].map((step) => ({ name: 'work', arguments: { agent: name, step } })) }
          : {
              text: `${name}: ${toolResults(request)
                .map((message) => message.content)
                .join(' ')}`,
            },
    });
  return {
    agent: new Agent({ name, mode: 'react', model: scripted, prompt: `You are ${name}.`, tools: [work], store, leaseMs: 200 }),
    model: scripted,
  };
}

function twoAgentWorkflow(store: RunStore, work: ReturnType<typeof tool>, options: { maxLoops?: number } = {}) {
  const left = workingAgent('left', store, work);
  const right = workingAgent('right', store, work);
  const workflow = new WorkflowBuilder({
    name: 'two-agents',
    state: { topic: lastValue(z.string()), notes: appendList(z.string()) },
  })
    .addAgentNode('left', left.agent, { input: 'topic', output: 'notes' })
    .addAgentNode('right', right.agent, { input: (state) => `Also ${state.topic}`, output: 'notes' })
    .addEdge(START, 'left')
    .addEdge(START, 'right')
    .addEdge('left', END)
    .addEdge('right', END)
    .compile({ store, timeoutMs: 60_000, leaseMs: 200, ...options });
  return { workflow, models: [left.model, right.model] };
}

const simpleWork = tool({
  name: 'work',
  description: 'Does one step.',
  parameters: z.object({ agent: z.string(), step: z.number() }),
  execute: ({ agent, step }) => `${agent}-${step}`,
});

describe('AgentNode', () => {
  it('runs a complete agent as an invocation with a stable, recorded inner run id, under the root run limits (R-6, W-6)', async () => {
    const store = new MemoryRunStore();
    const { workflow } = twoAgentWorkflow(store, simpleWork, { maxLoops: 10 });
    const run = workflow.run({ sessionId: 'session', runId: 'wf-1', input: { topic: 'tides' } });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: { notes: ['left: left-1 left-2', 'right: right-1 right-2'] } });
    const journal = await store.readJournal('wf-1');
    const invoked = journal.filter((entry) => entry.type === 'agent-invoked');
    expect(invoked.map((entry) => entry.data)).toEqual([
      // Each with its share of the root's 10 loops, recorded so that a takeover never changes it.
      { step: 0, runId: innerRunIdOf('wf-1', '0/left'), sessionId: innerRunIdOf('wf-1', '0/left'), loopBudget: 5 },
      { step: 0, runId: innerRunIdOf('wf-1', '0/right'), sessionId: innerRunIdOf('wf-1', '0/right'), loopBudget: 5 },
    ]);
    const outer = await store.getRun('wf-1');
    for (const taskId of ['0/left', '0/right']) {
      const inner = await store.getRun(innerRunIdOf('wf-1', taskId));
      // The inner run obeys the root deadline and its share of the remaining loop budget.
      expect(inner).toMatchObject({ status: 'succeeded', deadlineAt: outer?.deadlineAt, loopsUsed: 2 });
      const started = (await store.readJournal(innerRunIdOf('wf-1', taskId)))[0];
      expect(started?.data).toMatchObject({ execution: { maxLoops: 5 }, deadlineAt: outer?.deadlineAt });
    }
    // Loops and usage of the inner runs are charged to the root run.
    expect(result.loops).toBe(4);
    expect(outer?.loopsUsed).toBe(4);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });

  it('reads back a finished agent whose result the workflow had not saved, without running it again (R-6)', async () => {
    const memory = new MemoryRunStore();
    // The first process saves the agent's own run but fails to save the workflow task that consumed it.
    const failing = countingStore(memory, (request) =>
      request.entries.some((entry) => entry.type === 'task-finished' && entry.taskId === '0/left'),
    );
    const first = twoAgentWorkflow(failing.store, simpleWork);
    await expect(first.workflow.run({ sessionId: 'session', runId: 'wf-2', input: { topic: 'tides' } }).result()).rejects.toThrow(
      'refused by the test store',
    );
    expect(await memory.getRun(innerRunIdOf('wf-2', '0/left'))).toMatchObject({ status: 'succeeded' });
    const callsBefore = first.models.map((model) => model.requests.length);

    const second = twoAgentWorkflow(memory, simpleWork);
    const result = await second.workflow.run({ sessionId: 'session', runId: 'wf-2' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: { notes: ['left: left-1 left-2', 'right: right-1 right-2'] } });
    // Nothing was asked of any model again: both inner runs were finished and read back.
    expect(second.models.map((model) => model.requests.length)).toEqual([0, 0]);
    expect(callsBefore).toEqual([2, 2]);
    expect(result.loops).toBe(4);
  });

  it('does not switch on inner parallelism: agents run in parallel, the calls of each agent one by one (W-6)', async () => {
    const active = new Map<string, number>();
    const most = new Map<string, number>();
    const bothStarted = { left: deferred(), right: deferred() };
    let concurrentAgents = 0;
    let mostConcurrentAgents = 0;
    const work = tool({
      name: 'work',
      description: 'Does one step.',
      parameters: z.object({ agent: z.enum(['left', 'right']), step: z.number() }),
      execute: async ({ agent, step }) => {
        active.set(agent, (active.get(agent) ?? 0) + 1);
        most.set(agent, Math.max(most.get(agent) ?? 0, active.get(agent) ?? 0));
        concurrentAgents += 1;
        mostConcurrentAgents = Math.max(mostConcurrentAgents, concurrentAgents);
        if (step === 1) {
          bothStarted[agent].resolve();
          // Each agent's first call waits for the other agent's first call: only outer parallelism lets both in.
          await bothStarted[agent === 'left' ? 'right' : 'left'].promise;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
        active.set(agent, (active.get(agent) ?? 1) - 1);
        concurrentAgents -= 1;
        return `${agent}-${step}`;
      },
    });
    const { workflow } = twoAgentWorkflow(new MemoryRunStore(), work);
    const result = await workflow.run({ sessionId: 'session', input: { topic: 'tides' } }).result();
    expect(result.status).toBe('succeeded');
    expect(mostConcurrentAgents).toBe(2);
    expect(most.get('left')).toBe(1);
    expect(most.get('right')).toBe(1);
  });

  it('passes a stop down to the inner agent: both runs end stopped (W-6)', async () => {
    const store = new MemoryRunStore();
    const started = deferred();
    const slowModel = new ScriptedModel({
      respond: () => {
        started.resolve();
        return { text: 'late', delayMs: 60_000 };
      },
    });
    const { agent } = workingAgent('slow', store, simpleWork, slowModel);
    const workflow = new WorkflowBuilder({
      name: 'stoppable',
      state: { topic: lastValue(z.string()), notes: appendList(z.string()) },
    })
      .addAgentNode('slow', agent, { input: 'topic', output: 'notes' })
      .addEdge(START, 'slow')
      .compile({ store });
    const run = workflow.run({ sessionId: 'session', runId: 'wf-stop', input: { topic: 'tides' } });
    await started.promise;
    run.stop();
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    expect(await store.getRun(innerRunIdOf('wf-stop', '0/slow'))).toMatchObject({ status: 'stopped' });
    expect(await store.getRun('wf-stop')).toMatchObject({ status: 'stopped' });
  });

  it('ends the workflow loop-budget-exhausted when no loop is left for a new agent', async () => {
    const { workflow } = twoAgentWorkflow(new MemoryRunStore(), simpleWork, { maxLoops: 1 });
    const result = await workflow.run({ sessionId: 'session', input: { topic: 'tides' } }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'loop-budget-exhausted', loops: 0 });
  });

  it('fails the node, with the inner run named, when the agent fails', async () => {
    const store = new MemoryRunStore();
    const { workflow } = twoAgentWorkflow(store, simpleWork, { maxLoops: 2 });
    const result = await workflow.run({ sessionId: 'session', runId: 'wf-tight', input: { topic: 'tides' } }).result();
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'node-failed',
      failure: {
        node: 'left',
        kind: 'agent-failed',
        agentRun: { runId: innerRunIdOf('wf-tight', '0/left'), status: 'failed', reason: 'loop-budget-exhausted' },
      },
      loops: 2,
    });
  });

  it('gives the inner agent the root run deadline: both end run-timeout (W-6, X-10)', async () => {
    const store = new MemoryRunStore();
    const slowModel = new ScriptedModel({ respond: () => ({ text: 'late', delayMs: 60_000 }) });
    const { agent } = workingAgent('slow', store, simpleWork, slowModel);
    const workflow = new WorkflowBuilder({
      name: 'deadline',
      state: { topic: lastValue(z.string()), notes: appendList(z.string()) },
    })
      .addAgentNode('slow', agent, { input: 'topic', output: 'notes' })
      .addEdge(START, 'slow')
      .compile({ store, timeoutMs: 200 });
    const result = await workflow.run({ sessionId: 'session', runId: 'wf-deadline', input: { topic: 'tides' } }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'run-timeout' });
    // The inner run ends on the same deadline by itself (the workflow does not wait for it).
    await expect
      .poll(() => store.getRun(innerRunIdOf('wf-deadline', '0/slow')))
      .toMatchObject({ status: 'failed', result: { reason: 'run-timeout' } });
  });

  it('refuses an agent node whose agent keeps its runs in another store (R-6)', () => {
    const work = tool({ name: 'work', description: 'Works.', parameters: z.object({}), execute: () => 'done' });
    const { agent: elsewhere } = workingAgent('elsewhere', new MemoryRunStore(), work);
    const build = () =>
      new WorkflowBuilder({ name: 'split', state: { question: lastValue(z.string()), answer: lastValue(z.string()) } })
        .addAgentNode('elsewhere', elsewhere, { input: 'question', output: 'answer' })
        .addEdge(START, 'elsewhere')
        .compile({ store: new MemoryRunStore() });
    const error = (() => {
      try {
        build();
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidConfigurationError.isInstance(error)).toBe(true);
    expect((error as InvalidConfigurationError).issues).toEqual([expect.objectContaining({ path: 'nodes.elsewhere' })]);
  });
});
