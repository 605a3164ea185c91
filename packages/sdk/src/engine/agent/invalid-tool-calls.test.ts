import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import type { ToolResultMessage } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel, type ScriptedReply } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { ReactAgentConfig } from './agent-config.js';
import type { RunEvent } from './run-events.js';

const toolResults = (request: ModelRequest) =>
  request.messages.filter((message): message is ToolResultMessage => message.role === 'tool');

function makeAgent(overrides: Partial<ReactAgentConfig> & Pick<ReactAgentConfig, 'model'>) {
  const store = new MemoryRunStore();
  return { store, agent: new Agent({ name: 'strict-agent', mode: 'react', prompt: 'You are tested.', store, ...overrides }) };
}

async function collect(run: { events(): AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return events;
}

/** A model that calls `give` once, then answers with what it read. */
function callOnceModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const results = toolResults(request);
      return results.length > 0 ? { text: `read: ${results[0]?.content}` } : { toolCalls: [{ name: 'give' }] };
    },
  });
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;

describe('tool results that are not JSON', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['a function', () => 1, /result is a function/],
    ['a Symbol', Symbol('s'), /result is a Symbol/],
    ['a Map', new Map([['a', 1]]), /result is a Map.*Object\.fromEntries/],
    ['a Set inside an object', { tags: new Set(['a']) }, /result\.tags is a Set/],
    ['a BigInt', 10n, /result is a BigInt/],
    ['a cyclic object', cyclic, /result\.self refers back .*cycle/],
    ['NaN inside an array', [1, Number.NaN], /result\[1\] is NaN/],
    ['a function as a property', { ok: true, callback: () => 1 }, /result\.callback is a function/],
  ];
  for (const [label, value, problem] of cases) {
    it(`${label}: an invalid-result outcome in the journal and for the model, never a crash or mangled content`, async () => {
      let executions = 0;
      const give = tool({
        name: 'give',
        description: 'Gives a value.',
        parameters: z.object({}),
        execute: () => {
          executions += 1;
          return value;
        },
      });
      const model = callOnceModel();
      const { agent, store } = makeAgent({ model, tools: [give], execution: { retry: { enabled: true } } });
      const run = agent.run({ sessionId: 's', input: 'go' });
      const [events, result] = await Promise.all([collect(run), run.result()]);
      // The run goes on: the model reads a typed error and answers.
      expect(result).toMatchObject({ status: 'succeeded', loops: 2 });
      const seen = toolResults(model.requests[1] as ModelRequest)[0];
      expect(seen?.isError).toBe(true);
      expect(seen?.content).toMatch(/^Error \(invalid-result\): the tool returned a value that is not JSON: /);
      expect(seen?.content).toMatch(problem);
      // The tool ran once: its effect happened, so the default policy does not run it again.
      expect(executions).toBe(1);
      const finish = events.find((event) => event.type === 'tool-call-finish');
      expect(finish).toMatchObject({ status: 'failed', failure: { kind: 'invalid-result' } });
      const journal = await store.readJournal(run.runId);
      const finished = journal.filter((entry) => entry.type === 'operation-finished');
      expect(finished.map((entry) => (entry.data as { failure?: { kind: string } }).failure?.kind)).toEqual(['invalid-result']);
    });
  }

  it('keeps what JSON can say: text as is, undefined as empty, a Date by its toJSON, absent undefined properties', async () => {
    const values: unknown[] = ['plain text', undefined, new Date(0), { a: 1, b: undefined, nested: [null, true, 'x'] }];
    const contents: string[] = [];
    for (const value of values) {
      const give = tool({ name: 'give', description: 'Gives.', parameters: z.object({}), execute: () => value });
      const model = callOnceModel();
      const { agent } = makeAgent({ model, tools: [give] });
      expect(await agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({ status: 'succeeded' });
      const seen = toolResults(model.requests[1] as ModelRequest)[0];
      expect(seen?.isError).toBeUndefined();
      contents.push(seen?.content ?? '<none>');
    }
    expect(contents).toEqual(['plain text', '', '"1970-01-01T00:00:00.000Z"', '{"a":1,"nested":[null,true,"x"]}']);
  });
});

describe('invalid tool calls from the model', () => {
  const add = (log: string[]) =>
    tool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        log.push(`${a}+${b}`);
        return a + b;
      },
    });
  const malformed: ScriptedReply = { toolCalls: [{ name: 'add', argumentsText: '{"a": 2, "b": ' }] };
  const wrongShape: ScriptedReply = { toolCalls: [{ name: 'add', arguments: { a: 'two', b: 3 } }] };
  const valid: ScriptedReply = { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };

  it('gives arguments that are not JSON back to the model as invalid-arguments; it corrects them and the run succeeds', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({ replies: [malformed, valid, { text: 'The sum is 5.' }] });
    const { agent, store } = makeAgent({ model, tools: [add(log)] });
    const run = agent.run({ sessionId: 's', input: 'What is 2 + 3?' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'The sum is 5.', loops: 3 });
    expect(log).toEqual(['2+3']);
    const correction = toolResults(model.requests[1] as ModelRequest)[0];
    expect(correction?.isError).toBe(true);
    expect(correction?.content).toMatch(/^Error \(invalid-arguments\): the arguments are not valid JSON/);
    expect(correction?.content).toContain('{\\"a\\": 2, \\"b\\": ');
    // The assistant message sent back to the model carries an object, as providers require.
    const assistant = model.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(assistant).toMatchObject({ toolCalls: [{ name: 'add', arguments: {} }] });
    // The journal keeps what the model sent, and the typed failure.
    const journal = await store.readJournal(run.runId);
    const responded = journal.find((entry) => entry.type === 'model-responded');
    expect(responded?.data).toMatchObject({ message: { toolCalls: [{ unparsedArguments: '{"a": 2, "b": ' }] } });
    const failure = journal.find((entry) => entry.type === 'operation-finished')?.data as { failure?: unknown };
    expect(failure.failure).toMatchObject({ kind: 'invalid-arguments', code: 'arguments-not-json' });
  });

  it('ends the run invalid-tool-calls after maxInvalidToolCallLoops consecutive invalid loops (default 3), each charged', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({ replies: [malformed, wrongShape, malformed, wrongShape, { text: 'never asked' }] });
    const { agent } = makeAgent({ model, tools: [add(log)] });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'invalid-tool-calls',
      loops: 4,
      failure: { kind: 'invalid-arguments', message: expect.stringContaining('more than 3 consecutive loops') },
    });
    expect(model.requests).toHaveLength(4);
    expect(log).toEqual([]);
  });

  it('counts consecutive loops only: a valid batch resets the count; the setting is honoured', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({
      replies: [malformed, valid, wrongShape, malformed, wrongShape, { text: 'done' }],
    });
    const { agent } = makeAgent({ model, tools: [add(log)] });
    expect(await agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({ status: 'succeeded', loops: 6 });
    expect(log).toEqual(['2+3']);

    const strict = new ScriptedModel({ replies: [malformed, malformed, valid, { text: 'done' }] });
    const { agent: strictAgent } = makeAgent({ model: strict, tools: [add(log)], execution: { maxInvalidToolCallLoops: 1 } });
    expect(await strictAgent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({
      status: 'failed',
      reason: 'invalid-tool-calls',
      loops: 2,
    });

    const none = new ScriptedModel({ replies: [malformed, { text: 'never asked' }] });
    const { agent: noneAgent } = makeAgent({ model: none, tools: [add(log)], execution: { maxInvalidToolCallLoops: 0 } });
    expect(await noneAgent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({
      reason: 'invalid-tool-calls',
      loops: 1,
    });
  });

  it('a Plan–Executor planner and executors get the same correctable errors; past the limit the whole run ends', async () => {
    const planner = new ScriptedModel({
      respond: (request) => {
        const system = request.system;
        const results = toolResults(request);
        if (system.startsWith('Work')) {
          // The executor: malformed every time.
          return { toolCalls: [{ name: 'add', argumentsText: 'not json' }] };
        }
        if (results.length === 0) return { toolCalls: [{ name: 'worker', argumentsText: '{"task": ' }] };
        if (results.length === 1) return { toolCalls: [{ name: 'worker', arguments: { task: 'add 2 and 3' } }] };
        return { text: 'unreachable' };
      },
    });
    const log: string[] = [];
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model: planner,
      planner: { prompt: 'Plan.' },
      executors: [{ name: 'worker', description: 'Adds.', prompt: 'Work.', tools: [add(log)] }],
      execution: { maxInvalidToolCallLoops: 1 },
    });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'invalid-tool-calls' });
    // The planner's malformed delegation was given back to it, and created no executor task.
    const plannerCorrection = planner.requests.find((request) => request.system === 'Plan.' && toolResults(request).length === 1);
    expect(toolResults(plannerCorrection as ModelRequest)[0]?.content).toMatch(
      /^Error \(invalid-arguments\): the arguments are not valid JSON/,
    );
    // The executor had 1 correction, then its second invalid loop ended the run.
    expect(planner.requests.filter((request) => request.system === 'Work.')).toHaveLength(2);
    expect(log).toEqual([]);
  });
});
