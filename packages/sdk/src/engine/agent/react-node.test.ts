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
  return { store, agent: new Agent({ name: 'test-agent', mode: 'react', prompt: 'You are tested.', store, ...overrides }) };
}

async function collect(run: { events(): AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events()) events.push(event);
  return events;
}

describe('ReAct loop', () => {
  it('calls a tool, joins the batch and answers from its result (L-1)', async () => {
    const add = tool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const model = new ScriptedModel({
      respond: (request) => {
        const results = toolResults(request);
        return results.length > 0
          ? { text: `The sum is ${results[0]?.content}.` }
          : { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
      },
    });
    const { agent, store } = makeAgent({ model, tools: [add] });
    const run = agent.run({ sessionId: 's', input: 'What is 2 + 3?' });
    const [events, result] = await Promise.all([collect(run), run.result()]);
    expect(result).toMatchObject({ status: 'succeeded', output: 'The sum is 5.', loops: 2, runId: run.runId });
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(events.map((event) => event.type)).toEqual([
      'run-start',
      'loop-start',
      'model-call-start',
      'model-call-finish',
      'tool-call-start',
      'tool-call-finish',
      'batch-join',
      'loop-start',
      'model-call-start',
      'model-call-finish',
      'run-finish',
    ]);
    expect(model.requests[0]?.tools.map((definition) => definition.name)).toEqual(['add']);
    expect(model.requests[0]?.tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    const stored = await store.getRun(run.runId);
    expect(stored).toMatchObject({ status: 'succeeded', loopsUsed: 2, ownerId: null });
  });

  it('runs batch members one by one when parallel is off, and together when on (X-4)', async () => {
    for (const parallel of [false, true]) {
      const log: string[] = [];
      const slow = tool({
        name: 'slow',
        description: 'Takes a while.',
        parameters: z.object({ id: z.string() }),
        execute: async ({ id }) => {
          log.push(`start ${id}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          log.push(`end ${id}`);
          return id;
        },
      });
      const model = new ScriptedModel({
        respond: (request) =>
          toolResults(request).length > 0
            ? {
                text: toolResults(request)
                  .map((message) => message.content)
                  .join(','),
              }
            : { toolCalls: ['a', 'b', 'c'].map((id) => ({ name: 'slow', arguments: { id } })) },
      });
      const { agent } = makeAgent({ model, tools: [slow], execution: { parallel } });
      const result = await agent.run({ sessionId: 's', input: 'go' }).result();
      expect(result.output).toBe('a,b,c');
      if (parallel) expect(log.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
      else expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    }
  });

  it('saves each result as it arrives and calls the model only after the whole batch (X-1, X-2)', async () => {
    let releaseSlow: () => void = () => {};
    const fast = tool({ name: 'fast', description: 'Fast.', parameters: z.object({}), execute: () => 'fast done' });
    const slow = tool({
      name: 'slow',
      description: 'Slow.',
      parameters: z.object({}),
      execute: () => new Promise<string>((resolve) => (releaseSlow = () => resolve('slow done'))),
    });
    const model = new ScriptedModel({
      respond: (request) =>
        toolResults(request).length > 0 ? { text: 'joined' } : { toolCalls: [{ name: 'slow' }, { name: 'fast' }] },
    });
    const { agent, store } = makeAgent({ model, tools: [fast, slow], execution: { parallel: true } });
    const run = agent.run({ sessionId: 's', input: 'go' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-finish' && event.toolName === 'fast') {
        const journal = await store.readJournal(run.runId);
        expect(journal.filter((entry) => entry.type === 'operation-finished')).toHaveLength(1);
        expect(model.requests).toHaveLength(1);
        releaseSlow();
      }
    }
    expect((await run.result()).output).toBe('joined');
    const results = toolResults(model.requests[1] as ModelRequest);
    expect(results.map((message) => message.content)).toEqual(['slow done', 'fast done']);
  });

  it('returns tool failures, invalid arguments and unknown tools to the model without cancelling the batch', async () => {
    const broken = tool({
      name: 'broken',
      description: 'Fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const fine = tool({
      name: 'fine',
      description: 'Works.',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => n * 2,
    });
    const model = new ScriptedModel({
      respond: (request) =>
        toolResults(request).length > 0
          ? {
              text: toolResults(request)
                .map((message) => `${message.isError ? 'E' : 'ok'}:${message.content}`)
                .join(' | '),
            }
          : {
              toolCalls: [
                { name: 'broken' },
                { name: 'fine', arguments: { n: 'x' } },
                { name: 'missing' },
                { name: 'fine', arguments: { n: 21 } },
              ],
            },
    });
    const { agent } = makeAgent({ model, tools: [broken, fine] });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('succeeded');
    const parts = result.output?.split(' | ') ?? [];
    expect(parts[0]).toBe('E:Error (tool-error): disk full');
    expect(parts[1]).toMatch(/^E:Error \(invalid-arguments\): invalid arguments: n: /);
    expect(parts[2]).toBe('E:Error (unknown-tool): there is no tool named "missing"');
    expect(parts[3]).toBe('ok:42');
    expect(result.loops).toBe(2);
  });

  it('retries a transient failure with the same arguments and identity when retry is on (X-5)', async () => {
    const seen: Array<{ attempt: number; operationId: string; value: number }> = [];
    const flaky = tool({
      name: 'flaky',
      description: 'Fails once.',
      parameters: z.object({ value: z.number() }),
      execute: ({ value }, context) => {
        seen.push({ attempt: context.attempt, operationId: context.operationId, value });
        if (context.attempt === 1) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
        return 'ok';
      },
    });
    const replies: ScriptedReply[] = [{ toolCalls: [{ name: 'flaky', arguments: { value: 7 } }] }, { text: 'done' }];
    const { agent } = makeAgent({
      model: new ScriptedModel({ replies }),
      tools: [flaky],
      execution: { retry: { enabled: true, attempts: 3, waitMs: 5 } },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const events = await collect(run);
    expect((await run.result()).output).toBe('done');
    expect(seen).toEqual([
      { attempt: 1, operationId: 'entry/1/0', value: 7 },
      { attempt: 2, operationId: 'entry/1/0', value: 7 },
    ]);
    expect(events.filter((event) => event.type === 'tool-call-fail')).toHaveLength(1);
  });

  it('does not retry when retry is off, when the failure is a business error, or when attempts are used up', async () => {
    const cases = [
      { retry: { enabled: false }, error: Object.assign(new Error('reset'), { code: 'ECONNRESET' }), calls: 1 },
      { retry: { enabled: true, waitMs: 1 }, error: new Error('business rule'), calls: 1 },
      {
        retry: { enabled: true, attempts: 3, waitMs: 1 },
        error: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
        calls: 3,
      },
      { retry: { enabled: true, waitMs: 1 }, error: Object.assign(new Error('marked'), { retryable: true }), calls: 2 },
    ];
    for (const testCase of cases) {
      let calls = 0;
      const failing = tool({
        name: 'failing',
        description: 'Always fails.',
        parameters: z.object({}),
        execute: () => {
          calls += 1;
          throw testCase.error;
        },
      });
      const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'failing' }] }, { text: 'gave up' }] });
      const { agent } = makeAgent({ model, tools: [failing], execution: { retry: testCase.retry } });
      const result = await agent.run({ sessionId: 's', input: 'go' }).result();
      expect(result.output).toBe('gave up');
      expect(calls).toBe(testCase.calls);
      expect(toolResults(model.requests[1] as ModelRequest)[0]?.isError).toBe(true);
    }
  });

  it('times out a tool attempt and reports it as a typed timeout (C-10)', async () => {
    const hang = tool({
      name: 'hang',
      description: 'Never ends.',
      parameters: z.object({}),
      execute: () => new Promise(() => {}),
    });
    const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'hang' }] }, { text: 'after timeout' }] });
    const { agent } = makeAgent({ model, tools: [hang], execution: { toolTimeoutMs: 30 } });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result.output).toBe('after timeout');
    expect(toolResults(model.requests[1] as ModelRequest)[0]?.content).toMatch(/^Error \(timeout\)/);
  });

  it('ends the run run-timeout at the deadline, as control flow and not a tool error (X-3)', async () => {
    let aborted = false;
    const hang = tool({
      name: 'hang',
      description: 'Waits for its signal.',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise((_, reject) =>
          context.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    });
    const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'hang' }] }] });
    // Long enough that the model's answer (the loop) is saved before the deadline on a loaded machine.
    const { agent, store } = makeAgent({ model, tools: [hang], execution: { timeoutMs: 1_000 } });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'run-timeout', loops: 1 });
    expect(aborted).toBe(true);
    expect(model.requests).toHaveLength(1);
    const types = (await store.readJournal(run.runId)).map((entry) => entry.type);
    expect(types).not.toContain('operation-finished');
    expect(types.at(-1)).toBe('run-finished');
  });

  it('stops on request with user-stop and starts no retry after the stop (X-10, S-11)', async () => {
    let calls = 0;
    const failing = tool({
      name: 'failing',
      description: 'Fails transiently.',
      parameters: z.object({}),
      execute: () => {
        calls += 1;
        throw Object.assign(new Error('busy'), { code: 'ECONNREFUSED' });
      },
    });
    const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'failing' }] }] });
    const { agent } = makeAgent({
      model,
      tools: [failing],
      execution: { retry: { enabled: true, attempts: 5, waitMs: 10_000 } },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    for await (const event of run.events()) if (event.type === 'tool-call-fail') run.stop();
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    expect(calls).toBe(1);
  });

  it('ends the run model-failed when the model fails for good, with the typed failure (S-10, S-11)', async () => {
    const model = new ScriptedModel({
      replies: [{ text: 'partial', error: { kind: 'server', status: 500, message: 'upstream broke' } }],
    });
    const { agent, store } = makeAgent({ model });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'server', status: 500 } });
    expect(result.output).toBeUndefined();
    const failed = (await store.readJournal(run.runId)).find((entry) => entry.type === 'model-attempt-failed');
    expect(failed?.data).toMatchObject({ partialText: 'partial', incomplete: true });
  });

  it('retries a model attempt honouring Retry-After and never splices partial output (S-9, N-11)', async () => {
    const replies: ScriptedReply[] = [
      { text: 'Half an ans', error: { kind: 'rate-limited', status: 429, message: 'slow down', retryAfterMs: 15 } },
      { text: 'A whole answer.' },
    ];
    const model = new ScriptedModel({ replies });
    const { agent } = makeAgent({ model, execution: { retry: { enabled: true, waitMs: 10_000 } } });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const events = await collect(run);
    expect(await run.result()).toMatchObject({ status: 'succeeded', output: 'A whole answer.', loops: 1 });
    expect(events.find((event) => event.type === 'model-call-fail')).toMatchObject({ willRetry: true, attempt: 1 });
  });

  it('never executes a tool call from a response cut by the length limit (S-8)', async () => {
    let executed = false;
    const act = tool({ name: 'act', description: 'Acts.', parameters: z.object({}), execute: () => (executed = true) });
    const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'act' }], finishReason: 'length' }] });
    const { agent } = makeAgent({ model, tools: [act] });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'model-failed', failure: { kind: 'incomplete-output' } });
    expect(executed).toBe(false);
  });

  it('applies the first-output timeout and stall detection to model streams (C-11)', async () => {
    for (const reply of [
      { text: 'late', delayMs: 200 },
      { text: 'stalls here', stallAfterParts: 1 },
    ]) {
      const model = new ScriptedModel({ replies: [reply] });
      const { agent } = makeAgent({ model, execution: { modelFirstOutputTimeoutMs: 30, modelStallTimeoutMs: 30 } });
      const result = await agent.run({ sessionId: 's', input: 'go' }).result();
      expect(result.failure?.kind).toBe(reply.delayMs ? 'timeout' : 'stalled');
    }
  });

  it('keeps the system prompt and the tool order identical on every call (N-4)', async () => {
    const a = tool({ name: 'b_tool', description: 'B.', parameters: z.object({}), execute: () => 'b' });
    const b = tool({ name: 'a_tool', description: 'A.', parameters: z.object({}), execute: () => 'a' });
    const model = new ScriptedModel({
      replies: [{ toolCalls: [{ name: 'a_tool' }] }, { toolCalls: [{ name: 'b_tool' }] }, { text: 'end' }],
    });
    const { agent } = makeAgent({ model, tools: [a, b] });
    await agent.run({ sessionId: 's', input: 'go' }).result();
    const shapes = model.requests.map((request) => JSON.stringify([request.system, request.tools]));
    expect(new Set(shapes).size).toBe(1);
  });
});
