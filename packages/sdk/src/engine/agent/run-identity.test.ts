import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { AgentMismatchError, RunInputMismatchError } from '../../core/errors/index.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

/** Issue 18, item 3: a run belongs to one agent (name, mode, role names) and one input for life. */
describe('run identity', () => {
  function planExecutor(store: MemoryRunStore, executorName: string, model: ScriptedModel) {
    const work = tool({ name: 'work', description: 'Works.', parameters: z.object({}), execute: () => 'worked' });
    return new Agent({
      name: 'team',
      mode: 'plan-executor',
      model,
      store,
      planner: { prompt: 'Plan.' },
      executors: [{ name: executorName, description: 'Does it.', prompt: 'Do it.', tools: [work] }],
      leaseMs: 50,
    });
  }

  it('refuses a different Plan–Executor agent (same mode and entry role, other executors) resuming an unfinished run', async () => {
    const store = new MemoryRunStore();
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const firstModel = new ScriptedModel({
      respond: async () => {
        await blocked;
        return { text: 'never used' };
      },
    });
    const owner = planExecutor(store, 'researcher', firstModel);
    const run = owner.run({ sessionId: 's', input: 'go' });
    while (firstModel.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const stored = await store.getRun(run.runId);
    await store.releaseLease(run.runId, stored?.epoch ?? 0);
    const before = await store.readJournal(run.runId);

    const intruderModel = new ScriptedModel({ replies: [{ text: 'the wrong answer' }] });
    const intruder = planExecutor(store, 'writer', intruderModel);
    const error = await intruder
      .run({ sessionId: 's', runId: run.runId })
      .result()
      .catch((caught: unknown) => caught);
    expect(AgentMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'agent-mismatch',
      recorded: { name: 'team', mode: 'plan-executor', roles: ['planner', 'researcher'] },
      requested: { roles: ['planner', 'writer'] },
    });
    expect(intruderModel.requests).toHaveLength(0);
    expect(await store.readJournal(run.runId)).toEqual(before);
    run.stop();
    release();
    await run.result().catch(() => undefined);
  });

  it('gives a finished run only to its own agent and input', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({
      name: 'a',
      mode: 'react',
      model: new ScriptedModel({ replies: [{ text: 'answer' }] }),
      prompt: 'p',
      store,
    });
    const run = agent.run({ sessionId: 's', input: 'question' });
    expect((await run.result()).output).toBe('answer');

    const other = new Agent({ name: 'b', mode: 'react', model: new ScriptedModel({ replies: [] }), prompt: 'p', store });
    await expect(other.run({ sessionId: 's', runId: run.runId, input: 'question' }).result()).rejects.toSatisfy(
      AgentMismatchError.isInstance,
    );
    await expect(agent.run({ sessionId: 's', runId: run.runId, input: 'another question' }).result()).rejects.toSatisfy(
      RunInputMismatchError.isInstance,
    );
    expect((await agent.run({ sessionId: 's', runId: run.runId, input: 'question' }).result()).output).toBe('answer');
    expect((await agent.run({ sessionId: 's', runId: run.runId }).result()).output).toBe('answer');
  });

  it('records the agent identity (name, mode, role names) in the first record', async () => {
    const store = new MemoryRunStore();
    const model = new ScriptedModel({ replies: [{ text: 'done' }] });
    const agent = planExecutor(store, 'researcher', model);
    const run = agent.run({ sessionId: 's', input: 'go' });
    await run.result();
    const [first] = await store.readJournal(run.runId, { limit: 1 });
    expect(first).toMatchObject({
      type: 'run-started',
      data: { agentName: 'team', mode: 'plan-executor', entryRole: 'planner', roles: ['planner', 'researcher'] },
    });
  });
});
