import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import type { ToolResultMessage } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { PlanExecutorAgentConfig } from './agent-config.js';
import type { ExecutionOptions } from './execution-options.js';
import type { RunEvent } from './run-events.js';

const PLANNER = 'You are the planner. Split the work and delegate.';
const RESEARCHER = 'You are a researcher. Answer the task you are given.';
const WRITER = 'You are a writer. Write what the task asks.';

const results = (request: ModelRequest) =>
  request.messages.filter((message): message is ToolResultMessage => message.role === 'tool');
const firstUserText = (request: ModelRequest) => request.messages.find((message) => message.role === 'user')?.content ?? '';

type Responder = (request: ModelRequest) => ScriptedReply;

/** A model whose answers depend on which role is asking (the system prompt says who). */
function roleModel(byRole: { planner: Responder; researcher?: Responder; writer?: Responder }) {
  return new ScriptedModel({
    respond: (request) => {
      if (request.system === PLANNER) return byRole.planner(request);
      if (request.system === RESEARCHER && byRole.researcher) return byRole.researcher(request);
      if (request.system === WRITER && byRole.writer) return byRole.writer(request);
      throw new Error(`no script for system prompt ${request.system}`);
    },
  });
}

function planExecutor(model: ScriptedModel, overrides: Partial<PlanExecutorAgentConfig> & { execution?: ExecutionOptions } = {}) {
  const store = new MemoryRunStore();
  const agent = new Agent({
    name: 'team',
    mode: 'plan-executor',
    model,
    store,
    planner: { prompt: PLANNER },
    executors: [
      { name: 'researcher', description: 'Finds facts.', prompt: RESEARCHER },
      { name: 'writer', description: 'Writes text.', prompt: WRITER },
    ],
    ...overrides,
  });
  return { agent, store };
}

async function collect(run: { events(): AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return events;
}

describe('Plan–Executor agents', () => {
  it('delegates to executors in private contexts and joins their results for the planner (L-2…L-5)', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? {
              text: 'Planning: research first, then write.',
              toolCalls: [
                { name: 'researcher', arguments: { task: 'Find the boiling point of water.', constraints: 'Celsius.' } },
                { name: 'writer', arguments: { task: 'Write a haiku about steam.', material: 'Water boils at 100 °C.' } },
              ],
            }
          : {
              text: `Report: ${results(request)
                .map((message) => message.content)
                .join(' / ')}`,
            },
      researcher: (request) => ({ text: `researched(${firstUserText(request).split('\n')[1]})` }),
      writer: () => ({ text: 'steam rises, kettle sings' }),
    });
    const { agent, store } = planExecutor(model);
    const run = agent.run({ sessionId: 's', input: 'Tell me about boiling water.' });
    const events = await collect(run);
    const result = await run.result();
    expect(result).toMatchObject({
      status: 'succeeded',
      output: 'Report: researched(Find the boiling point of water.) / steam rises, kettle sings',
      loops: 4,
    });
    // Context isolation: an executor sees its own prompt and task only (L-5).
    const executorRequests = model.requests.filter((request) => request.system !== PLANNER);
    expect(executorRequests).toHaveLength(2);
    for (const request of executorRequests) {
      expect(request.messages).toHaveLength(1);
      expect(JSON.stringify(request)).not.toContain(PLANNER);
      expect(JSON.stringify(request)).not.toContain('Tell me about boiling water.');
      expect(JSON.stringify(request)).not.toContain('Planning: research first');
      expect(request.tools).toEqual([]);
    }
    expect(firstUserText(executorRequests[0] as ModelRequest)).toBe(
      'Task:\nFind the boiling point of water.\n\nConstraints:\nCelsius.',
    );
    // The planner sees delegations as tools marked as delegation (L-3), in a fixed order.
    const plannerTools = model.requests[0]?.tools ?? [];
    expect(plannerTools.map((definition) => [definition.name, definition.kind])).toEqual([
      ['researcher', 'delegation'],
      ['writer', 'delegation'],
    ]);
    // The planner's next call gets each result once, in call order, after the whole batch.
    const second = model.requests.filter((request) => request.system === PLANNER)[1] as ModelRequest;
    expect(results(second).map((message) => message.content)).toEqual([
      'researched(Find the boiling point of water.)',
      'steam rises, kettle sings',
    ]);
    expect(events.filter((event) => event.type === 'task-start').map((event) => (event as { taskId: string }).taskId)).toEqual([
      'entry/1/0',
      'entry/1/1',
    ]);
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'task-created')).toHaveLength(2);
  });

  it('makes two delegations of one role two tasks with their own contexts and loop numbers (D-3)', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? {
              toolCalls: [
                { name: 'researcher', arguments: { task: 'alpha' } },
                { name: 'researcher', arguments: { task: 'beta' } },
              ],
            }
          : {
              text: results(request)
                .map((message) => message.content)
                .join(','),
            },
      researcher: (request) => ({ text: `${firstUserText(request).replace('Task:\n', '')}-done` }),
    });
    const { agent, store } = planExecutor(model);
    const run = agent.run({ sessionId: 's', input: 'go' });
    expect((await run.result()).output).toBe('alpha-done,beta-done');
    const loops = (await store.readJournal(run.runId))
      .filter((entry) => entry.type === 'loop-started')
      .map((entry) => `${entry.taskId}#${(entry.data as { loop: number }).loop}`);
    expect(loops).toEqual(['entry#1', 'entry/1/0#1', 'entry/1/1#1', 'entry#2']);
  });

  it('lets the planner call its own tools in the same batch, without taking executor slots (D-4, X-4)', async () => {
    let active = 0;
    let maxActive = 0;
    const slowWork = tool({
      name: 'slow_work',
      description: 'Works for a while.',
      parameters: z.object({}),
      execute: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 25));
        active -= 1;
        return 'worked';
      },
    });
    const lookup = tool({ name: 'lookup', description: 'Planner lookup.', parameters: z.object({}), execute: () => 'looked up' });
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? {
              toolCalls: [
                { name: 'researcher', arguments: { task: 'one' } },
                { name: 'researcher', arguments: { task: 'two' } },
                { name: 'researcher', arguments: { task: 'three' } },
                { name: 'researcher', arguments: { task: 'four' } },
                { name: 'lookup' },
              ],
            }
          : {
              text: results(request)
                .map((message) => message.content)
                .join(','),
            },
      researcher: (request) => (results(request).length === 0 ? { toolCalls: [{ name: 'slow_work' }] } : { text: 'ok' }),
    });
    const { agent } = planExecutor(model, {
      planner: { prompt: PLANNER, tools: [lookup] },
      executors: [{ name: 'researcher', description: 'Finds facts.', prompt: RESEARCHER, tools: [slowWork] }],
      execution: { parallel: true, maxParallelExecutors: 2 },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const events = await collect(run);
    expect((await run.result()).output).toBe('ok,ok,ok,ok,looked up');
    expect(maxActive).toBe(2);
    // The planner's own tool did not wait for an executor slot: it ran before any executor ended.
    const lookupStart = events.findIndex((event) => event.type === 'tool-call-start' && event.toolName === 'lookup');
    const firstTaskEnd = events.findIndex((event) => event.type === 'task-finish');
    expect(lookupStart).toBeGreaterThanOrEqual(0);
    expect(lookupStart).toBeLessThan(firstTaskEnd);
    let running = 0;
    let maxRunning = 0;
    for (const event of events) {
      if (event.type === 'task-start') running += 1;
      if (event.type === 'task-finish') running -= 1;
      maxRunning = Math.max(maxRunning, running);
    }
    expect(maxRunning).toBe(2);
  });

  it('runs members one by one when parallel is off', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? {
              toolCalls: [
                { name: 'researcher', arguments: { task: 'a' } },
                { name: 'writer', arguments: { task: 'b' } },
                { name: 'researcher', arguments: { task: 'c' } },
              ],
            }
          : { text: 'end' },
      researcher: () => ({ text: 'r' }),
      writer: () => ({ text: 'w' }),
    });
    const { agent } = planExecutor(model);
    const run = agent.run({ sessionId: 's', input: 'go' });
    const order = (await collect(run))
      .filter((event) => event.type === 'task-start' || event.type === 'task-finish')
      .map((event) => event.type);
    expect(order).toEqual(['task-start', 'task-finish', 'task-start', 'task-finish', 'task-start', 'task-finish']);
  });

  it('ends the run loop-budget-exhausted when an executor uses up the shared budget (X-8)', async () => {
    const step = tool({ name: 'step', description: 'A step.', parameters: z.object({}), execute: () => 'stepped' });
    const model = roleModel({
      planner: () => ({ toolCalls: [{ name: 'researcher', arguments: { task: 'endless' } }] }),
      researcher: () => ({ toolCalls: [{ name: 'step' }] }),
    });
    const { agent, store } = planExecutor(model, {
      executors: [{ name: 'researcher', description: 'Loops forever.', prompt: RESEARCHER, tools: [step] }],
      execution: { maxLoops: 5 },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'loop-budget-exhausted', loops: 5 });
    expect(model.requests).toHaveLength(5);
    const loops = (await store.readJournal(run.runId)).filter((entry) => entry.type === 'loop-started');
    expect(loops.map((entry) => entry.taskId)).toEqual(['entry', 'entry/1/0', 'entry/1/0', 'entry/1/0', 'entry/1/0']);
  });

  it('returns an executor model failure to the planner as a batch result (S-10)', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? {
              toolCalls: [
                { name: 'researcher', arguments: { task: 'fails' } },
                { name: 'writer', arguments: { task: 'works' } },
              ],
            }
          : {
              text: results(request)
                .map((message) => `${message.isError ? 'E' : 'ok'}:${message.content}`)
                .join(' | '),
            },
      researcher: () => ({ error: { kind: 'server', status: 503, message: 'overloaded' } }),
      writer: () => ({ text: 'written' }),
    });
    const { agent } = planExecutor(model, { execution: { parallel: true } });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const events = await collect(run);
    const result = await run.result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toBe(
      'E:Error (executor-failed): the "researcher" executor stopped: its model failed (server: overloaded) | ok:written',
    );
    expect(events.find((event) => event.type === 'task-finish' && event.status === 'failed')).toBeDefined();
  });

  it('returns a delegation with invalid task arguments to the planner without creating a task (C-13)', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? { toolCalls: [{ name: 'writer', arguments: { topic: 'no task field' } }] }
          : { text: results(request)[0]?.content ?? '' },
    });
    const { agent, store } = planExecutor(model, {
      executors: [
        {
          name: 'writer',
          description: 'Writes about a subject.',
          prompt: WRITER,
          inputSchema: z.object({ subject: z.string(), words: z.number().int() }),
        },
      ],
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result.output).toMatch(/^Error \(invalid-arguments\): invalid task: subject: /);
    expect((await store.readJournal(run.runId)).some((entry) => entry.type === 'task-created')).toBe(false);
    expect(model.requests.every((request) => request.system === PLANNER)).toBe(true);
  });

  it('has the executor correct an answer that breaks its output schema, under the shared budget (C-13, O-2)', async () => {
    const model = roleModel({
      planner: (request) =>
        results(request).length === 0
          ? { toolCalls: [{ name: 'researcher', arguments: { task: 'count the moons of Mars' } }] }
          : { text: results(request)[0]?.content ?? '' },
      researcher: (request) =>
        request.messages.length === 1 ? { text: 'Mars has two moons.' } : { text: '```json\n{"planet":"Mars","moons":2}\n```' },
    });
    const { agent } = planExecutor(model, {
      executors: [
        {
          name: 'researcher',
          description: 'Finds facts.',
          prompt: RESEARCHER,
          outputSchema: z.object({ planet: z.string(), moons: z.number() }),
        },
      ],
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const events = await collect(run);
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: '{"planet":"Mars","moons":2}', loops: 4 });
    expect(events.filter((event) => event.type === 'answer-reject')).toHaveLength(1);
    const correction = model.requests.find((request) => request.system === RESEARCHER && request.messages.length === 3);
    expect(correction?.messages[2]?.content).toContain('does not match the required output format');
  });

  it('refuses executor names that clash, and an agent without executors', () => {
    const model = new ScriptedModel({ replies: [] });
    const lookup = tool({ name: 'writer', description: 'x', parameters: z.object({}), execute: () => '' });
    expect(
      () =>
        new Agent({
          name: 'bad',
          mode: 'plan-executor',
          model,
          planner: { prompt: 'p', tools: [lookup] },
          executors: [
            { name: 'writer', description: 'd', prompt: 'p' },
            { name: 'writer', description: 'd', prompt: 'p' },
          ],
        }),
    ).toThrow(/duplicate executor name "writer"[\s\S]*also the name of a planner tool/);
    expect(() => new Agent({ name: 'bad', mode: 'plan-executor', model, planner: { prompt: 'p' }, executors: [] })).toThrow(
      /at least one executor role/,
    );
  });
});
