import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

const step = tool({ name: 'step', description: 'One step.', parameters: z.object({}), execute: () => 'stepped' });

/** A model that calls `step` until it has seen `steps` results, then answers. */
function modelNeeding(steps: number) {
  return new ScriptedModel({
    respond: (request) => {
      const seen = request.messages.filter((message) => message.role === 'tool').length;
      return seen >= steps ? { text: `done after ${seen}` } : { toolCalls: [{ name: 'step' }] };
    },
  });
}

function agentWith(model: ScriptedModel, maxLoops: number) {
  const store = new MemoryRunStore();
  return {
    store,
    agent: new Agent({ name: 'budget', mode: 'react', model, prompt: 'p', tools: [step], store, execution: { maxLoops } }),
  };
}

describe('loop budget (X-8, X-9)', () => {
  it('limit 3: the third loop runs and finishes the run successfully', async () => {
    const model = modelNeeding(2);
    const { agent } = agentWith(model, 3);
    const result = await agent.run({ sessionId: 's', input: 'go' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'done after 2', loops: 3 });
    expect(model.requests).toHaveLength(3);
  });

  it('limit 3: a run that needs a fourth loop ends loop-budget-exhausted before a fourth model call', async () => {
    const model = modelNeeding(3);
    const { agent, store } = agentWith(model, 3);
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed', reason: 'loop-budget-exhausted', loops: 3 });
    expect(result.output).toBeUndefined();
    expect(model.requests).toHaveLength(3);
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'loop-started')).toHaveLength(3);
    // The third batch ran and joined: unfinished work was done, then refused, never reported as success.
    expect(journal.filter((entry) => entry.type === 'batch-joined')).toHaveLength(3);
  });

  it('limit 100: the 100th loop runs and may finish; a 101st is refused', async () => {
    const finishing = modelNeeding(99);
    expect(await agentWith(finishing, 100).agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({
      status: 'succeeded',
      loops: 100,
    });
    const needing101 = modelNeeding(100);
    expect(await agentWith(needing101, 100).agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({
      status: 'failed',
      reason: 'loop-budget-exhausted',
      loops: 100,
    });
    expect(needing101.requests).toHaveLength(100);
  });

  it('does not charge transparent retries or several failing tools of one loop more than once', async () => {
    let attempts = 0;
    const flaky = tool({
      name: 'flaky',
      description: 'Fails twice.',
      parameters: z.object({}),
      execute: () => {
        attempts += 1;
        if (attempts <= 2) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
        return 'ok';
      },
    });
    const broken = tool({
      name: 'broken',
      description: 'Fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('no');
      },
    });
    const model = new ScriptedModel({
      replies: [{ toolCalls: [{ name: 'flaky' }, { name: 'broken' }, { name: 'broken' }] }, { text: 'end' }],
    });
    const agent = new Agent({
      name: 'budget',
      mode: 'react',
      model,
      prompt: 'p',
      tools: [flaky, broken],
      execution: { retry: { enabled: true, attempts: 3, waitMs: 1 } },
    });
    expect(await agent.run({ sessionId: 's', input: 'go' }).result()).toMatchObject({ status: 'succeeded', loops: 2 });
  });

  it('uses the budget stored with the run, not the one of the code that resumes it (C-15)', async () => {
    const store = new MemoryRunStore();
    const first = new Agent({
      name: 'b',
      mode: 'react',
      model: modelNeeding(5),
      prompt: 'p',
      tools: [step],
      store,
      execution: { maxLoops: 2 },
    });
    const run = first.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    expect(result).toMatchObject({ reason: 'loop-budget-exhausted', loops: 2 });
    const generous = new Agent({
      name: 'b',
      mode: 'react',
      model: modelNeeding(5),
      prompt: 'p',
      tools: [step],
      store,
      execution: { maxLoops: 50 },
    });
    expect(await generous.run({ sessionId: 's', runId: run.runId }).result()).toEqual(result);
  });
});

describe('caller limits (W-6)', () => {
  it('tightens the budget and deadline of a new run, and keeps them on resume', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({ name: 'b', mode: 'react', model: modelNeeding(5), prompt: 'p', tools: [step], store });
    const deadlineAt = Date.now() + 60_000;
    const run = agent.run({ sessionId: 's', input: 'go', limits: { maxLoops: 2, deadlineAt } });
    expect(await run.result()).toMatchObject({ reason: 'loop-budget-exhausted', loops: 2 });
    expect((await store.getRun(run.runId))?.deadlineAt).toBe(deadlineAt);
    const looser = agent.run({ sessionId: 'other', input: 'go', limits: { maxLoops: 500 } });
    expect(await looser.result()).toMatchObject({ status: 'succeeded', loops: 6 });
  });

  it('stops when the caller signal aborts', async () => {
    const controller = new AbortController();
    const hang = tool({ name: 'hang', description: 'Waits.', parameters: z.object({}), execute: () => new Promise(() => {}) });
    const model = new ScriptedModel({ replies: [{ toolCalls: [{ name: 'hang' }] }] });
    const agent = new Agent({ name: 'b', mode: 'react', model, prompt: 'p', tools: [hang] });
    const run = agent.run({ sessionId: 's', input: 'go', signal: controller.signal });
    for await (const event of run.events()) if (event.type === 'tool-call-start') controller.abort();
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop' });
  });
});
