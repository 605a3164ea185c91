import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import {
  InvalidRunRequestError,
  OwnershipLostError,
  RunInputMismatchError,
  RunOwnedElsewhereError,
} from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

const answerAfterTool = (request: { messages: readonly { role: string }[] }) =>
  request.messages.some((message) => message.role === 'tool') ? { text: 'finished' } : { toolCalls: [{ name: 'wait' }] };

function blockingTool() {
  let release: () => void = () => {};
  const started = new Promise<void>((resolveStarted) => {
    release = resolveStarted;
  });
  let finish: (value: string) => void = () => {};
  const waitTool = tool({
    name: 'wait',
    description: 'Waits to be released.',
    parameters: z.object({}),
    execute: () =>
      new Promise<string>((resolve) => {
        finish = resolve;
        release();
      }),
  });
  return { waitTool, started, finish: (value: string) => finish(value) };
}

/** An agent named `a` whose model answers `x` once. */
function answeringAgent(store: MemoryRunStore): Agent {
  return new Agent({ name: 'a', mode: 'react', model: new ScriptedModel({ replies: [{ text: 'x' }] }), prompt: 'p', store });
}

describe('run ownership (R-2)', () => {
  it('answers owned-elsewhere to a second run() on a live run and starts no second executor', async () => {
    const store = new MemoryRunStore();
    const { waitTool, started, finish } = blockingTool();
    const model = new ScriptedModel({ respond: answerAfterTool });
    const agent = new Agent({ name: 'a', mode: 'react', model, prompt: 'p', tools: [waitTool], store });
    const first = agent.run({ sessionId: 's', input: 'go' });
    await started;
    const second = agent.run({ sessionId: 's', runId: first.runId, input: 'go' });
    const error = await second.result().catch((caught: unknown) => caught);
    expect(RunOwnedElsewhereError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'owned-elsewhere', runId: first.runId });
    expect((error as RunOwnedElsewhereError).leaseExpiresAt).toBeGreaterThan(Date.now());
    expect(model.requests).toHaveLength(1);
    finish('ok');
    expect((await first.result()).output).toBe('finished');
  });

  it('returns the stored result of a finished run without calling the model', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ replies: [{ text: 'only once' }] });
    const agent = new Agent({ name: 'a', mode: 'react', model, prompt: 'p', store });
    const run = agent.run({ sessionId: 's', input: 'go' });
    const result = await run.result();
    const again = agent.run({ sessionId: 's', runId: run.runId, input: 'go' });
    const events = [];
    for await (const event of again.events()) events.push(event.type);
    expect(await again.result()).toEqual(result);
    expect(events).toEqual(['run-finish']);
    expect(model.requests).toHaveLength(1);
    expect((await store.readJournal(run.runId)).filter((entry) => entry.type === 'run-started')).toHaveLength(1);
  });

  it('refuses a resume with another input or session, and a resume of a run that does not exist', async () => {
    const store = new MemoryRunStore();
    const agent = answeringAgent(store);
    const run = agent.run({ sessionId: 's', input: 'go' });
    await run.result();
    await expect(agent.run({ sessionId: 'other', runId: run.runId }).result()).rejects.toSatisfy(
      InvalidRunRequestError.isInstance,
    );
    await expect(agent.run({ sessionId: 's', runId: 'missing' }).result()).rejects.toThrow(/does not exist/);
    expect(await store.getRun('missing')).toBeUndefined();
    expect(() => agent.run({ sessionId: 's', input: '' })).toThrow(InvalidRunRequestError);
  });

  it('resumes a run without looking it up first, and lets a workflow run go again untouched but for its epoch', async () => {
    const store = new MemoryRunStore();
    const lookups: string[] = [];
    const getRun = store.getRun.bind(store);
    store.getRun = (runId) => {
      lookups.push(runId);
      return getRun(runId);
    };
    const agent = answeringAgent(store);
    await store.createRun({
      runId: 'hosted',
      sessionId: 's',
      labels: { kind: 'agent', name: 'a', metadata: {} },
      entries: [{ type: 'run-requested', data: { input: 'go' } }],
    });
    expect(await agent.run({ sessionId: 's', runId: 'hosted' }).result()).toMatchObject({ status: 'succeeded', output: 'x' });
    expect(lookups).toEqual([]);
    await store.createRun({ runId: 'flow', sessionId: 's', labels: { kind: 'workflow', name: 'w', metadata: {} }, entries: [] });
    await expect(agent.run({ sessionId: 's', runId: 'flow' }).result()).rejects.toThrow(
      /is a workflow run; an agent cannot execute it/,
    );
    // Taken and let go at once: no owner, nothing written, the next owner's epoch is one higher.
    expect(await getRun('flow')).toMatchObject({ kind: 'workflow', ownerId: null, lastSequence: 0 });
    expect((await getRun('flow'))?.leaseExpiresAt).toBeLessThanOrEqual(Date.now());
  });

  it('refuses to replace the input of an unfinished run (R-3)', async () => {
    const store = new MemoryRunStore();
    const { waitTool, started } = blockingTool();
    const agent = new Agent({
      name: 'a',
      mode: 'react',
      model: new ScriptedModel({ respond: answerAfterTool }),
      prompt: 'p',
      tools: [waitTool],
      store,
      leaseMs: 50,
    });
    const first = agent.run({ sessionId: 's', input: 'go' });
    await started;
    const stored = await store.getRun(first.runId);
    await store.releaseLease(first.runId, stored?.epoch ?? 0);
    await expect(agent.run({ sessionId: 's', runId: first.runId, input: 'something else' }).result()).rejects.toSatisfy(
      RunInputMismatchError.isInstance,
    );
    first.stop();
  });

  it('stops an owner whose run was taken over; none of its later writes land', async () => {
    let clock = Date.now();
    const store = new MemoryRunStore({ now: () => clock });
    const { waitTool, started, finish } = blockingTool();
    const model = new ScriptedModel({ respond: answerAfterTool });
    const agent = new Agent({ name: 'a', mode: 'react', model, prompt: 'p', tools: [waitTool], store, leaseMs: 60_000 });
    const owner = agent.run({ sessionId: 's', input: 'go' });
    await started;
    // The owner is alive but its lease has run out (a long pause): another process takes over.
    clock += 120_000;
    const takeover = await store.acquire({
      runId: owner.runId,
      sessionId: 's',
      ownerId: 'other-process',
      leaseMs: 60_000,
      deadlineAt: 0,
      initialEntries: [],
    });
    expect(takeover.outcome).toBe('acquired');
    const before = await store.readJournal(owner.runId);
    finish('late result');
    const error = await owner.result().catch((caught: unknown) => caught);
    expect(OwnershipLostError.isInstance(error)).toBe(true);
    expect(await store.readJournal(owner.runId)).toEqual(before);
    expect((await store.getRun(owner.runId))?.epoch).toBe(2);
  });
});
