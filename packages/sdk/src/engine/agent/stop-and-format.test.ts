import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { InvalidRunRequestError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import { MissingPromptVariableError } from './prompt-template.js';

describe('stop (S-5, S-6)', () => {
  it('lets calls in flight in a parallel batch settle, keeps their results, and decides nothing more', async () => {
    const store = new MemoryRunStore();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = tool({
      name: 'slow',
      description: 'Slow.',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }, context) => {
        await released;
        return `${id} finished (aborted: ${context.signal.aborted})`;
      },
    });
    const model = new ScriptedModel({
      respond: () => ({ toolCalls: ['a', 'b', 'c'].map((id) => ({ name: 'slow', arguments: { id } })) }),
    });
    const agent = new Agent({
      name: 'stop',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [slow],
      store,
      execution: { parallel: true },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    let started = 0;
    for await (const event of run.events()) {
      if (event.type === 'tool-call-start') started += 1;
      if (event.type === 'tool-call-start' && started === 3) {
        run.stop();
        setTimeout(release, 20);
      }
    }
    const result = await run.result();
    expect(result).toMatchObject({ status: 'stopped', reason: 'user-stop', loops: 1 });
    const journal = await store.readJournal(run.runId);
    const finished = journal
      .filter((entry) => entry.type === 'operation-finished')
      .map((entry) => (entry.data as { content: string }).content);
    expect(finished.sort()).toEqual([
      'a finished (aborted: false)',
      'b finished (aborted: false)',
      'c finished (aborted: false)',
    ]);
    expect(model.requests).toHaveLength(1);
    expect(journal.at(-1)?.type).toBe('run-finished');
    // A finished run is never restarted: calling run again returns the stored result (S-6).
    expect(await agent.run({ sessionId: 's', runId: run.runId }).result()).toEqual(result);
    expect(model.requests).toHaveLength(1);
  });

  it('starts no queued executor after a stop', async () => {
    const store = new MemoryRunStore();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = tool({
      name: 'work',
      description: 'Works.',
      parameters: z.object({}),
      execute: () => released.then(() => 'worked'),
    });
    const model = new ScriptedModel({
      respond: (request) => {
        if (request.system === 'planner')
          return { toolCalls: ['a', 'b', 'c'].map((task) => ({ name: 'worker', arguments: { task } })) };
        return request.messages.some((message) => message.role === 'tool') ? { text: 'ok' } : { toolCalls: [{ name: 'work' }] };
      },
    });
    const agent = new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      store,
      planner: { prompt: 'planner' },
      executors: [{ name: 'worker', description: 'Works.', prompt: 'worker', tools: [work] }],
      execution: { parallel: true, maxParallelExecutors: 1 },
    });
    const run = agent.run({ sessionId: 's', input: 'go' });
    for await (const event of run.events()) {
      if (event.type === 'tool-call-start') {
        run.stop();
        release();
      }
    }
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop' });
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'task-created')).toHaveLength(1);
    expect(journal.filter((entry) => entry.type === 'operation-finished' && entry.taskId === 'entry/1/0')).toHaveLength(1);
  });
});

describe('output format (O-1, O-2)', () => {
  const schema = z.object({ city: z.string(), population: z.number().int() });

  it('sends validation errors back to the same role and delivers only a valid answer', async () => {
    const model = new ScriptedModel({
      replies: [{ text: 'Paris, about two million people' }, { text: '{"city":"Paris","population":2100000}' }],
    });
    const agent = new Agent({ name: 'f', mode: 'react', model, prompt: 'p', outputSchema: schema });
    const result = await agent.run({ sessionId: 's', input: 'Largest French city?' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: '{"city":"Paris","population":2100000}', loops: 2 });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('does not match the required output format');
  });

  it('ends loop-budget-exhausted when a correction would need a loop past the budget', async () => {
    const model = new ScriptedModel({ respond: () => ({ text: 'not JSON at all' }) });
    const agent = new Agent({ name: 'f', mode: 'react', model, prompt: 'p', outputSchema: schema, execution: { maxLoops: 2 } });
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'failed', reason: 'loop-budget-exhausted', loops: 2 });
    expect(result.output).toBeUndefined();
    expect(model.requests).toHaveLength(2);
  });
});

describe('prompt variables and input schema (C-12)', () => {
  it('fills declared variables from the agent and the run, and keeps them on resume', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ respond: (request) => ({ text: request.system }) });
    const agent = new Agent({
      name: 'v',
      mode: 'react',
      model,
      prompt: 'You serve {{company}} customers in {{ language }}.',
      variables: { company: 'Acme' },
      store,
    });
    const run = agent.run({ sessionId: 's', input: 'hi', variables: { language: 'French' } });
    expect((await run.result()).output).toBe('You serve Acme customers in French.');
    expect(await agent.run({ sessionId: 's', runId: run.runId }).result()).toMatchObject({
      output: 'You serve Acme customers in French.',
    });
  });

  it('refuses a run with a missing variable before anything is saved', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'v',
      mode: 'react',
      model: new ScriptedModel({ replies: [] }),
      prompt: 'Hello {{name}}',
      store,
    });
    expect(() => agent.run({ sessionId: 's', input: 'hi' })).toThrow(MissingPromptVariableError);
    expect(await store.listSessionRuns('s')).toEqual([]);
  });

  it('validates structured input against the input schema before anything is saved', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ respond: (request) => ({ text: `got ${request.messages[0]?.content}` }) });
    const agent = new Agent({
      name: 'v',
      mode: 'react',
      model,
      prompt: 'p',
      store,
      inputSchema: z.object({ orderId: z.string(), quantity: z.number().int().positive() }),
    });
    expect(() => agent.run({ sessionId: 's', input: { orderId: 'A1', quantity: 0 } })).toThrow(InvalidRunRequestError);
    expect(await store.listSessionRuns('s')).toEqual([]);
    const result = await agent.run({ sessionId: 's', input: { orderId: 'A1', quantity: 2 } }).result();
    expect(result.output).toBe('got {"orderId":"A1","quantity":2}');
  });
});
