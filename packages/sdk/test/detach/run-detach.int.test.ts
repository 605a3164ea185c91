/**
 * `run.detach()` on every durable store: a host hands a run in progress over, and
 * another agent instance (with a 10-minute lease, so only a released lease lets it in) takes it
 * over at once — no saved result redone, input once, budget and deadline kept. Run on memory, a
 * real SQLite file and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { RunDetachedError, RunOwnedElsewhereError } from '../../src/core/errors/index.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { MemoryRunStore } from '../../src/store/memory/memory-run-store.js';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import type { RunStore } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../postgres/postgres-availability.js';

const TEN_MINUTES = 600_000;

/** A gate a test opens: tools and model replies wait on it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let reach: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  return { open, opened, reach, reached };
}

/**
 * One process's agent: loop 1 calls `fast`, loop 2 calls `slow` (waits on the gate when given),
 * loop 3 answers. Executions are counted per tool across every instance.
 */
function agentOn(store: RunStore, executions: Map<string, number>, options: { slowGate?: ReturnType<typeof gate> } = {}) {
  const count = (name: string) => executions.set(name, (executions.get(name) ?? 0) + 1);
  const fast = tool({
    name: 'fast',
    description: 'Answers at once.',
    parameters: z.object({}),
    execute: () => {
      count('fast');
      return 'fast done';
    },
  });
  const slow = tool({
    name: 'slow',
    description: 'Answers when let go.',
    parameters: z.object({}),
    execute: async () => {
      count('slow');
      if (options.slowGate) {
        options.slowGate.reach();
        await options.slowGate.opened;
      }
      return 'slow done';
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const tools = request.messages.filter((message) => message.role === 'tool').length;
      if (tools === 0) return { toolCalls: [{ name: 'fast' }] };
      if (tools === 1) return { toolCalls: [{ name: 'slow' }] };
      return { text: 'all done' };
    },
  });
  const agent = new Agent({
    name: 'handover',
    mode: 'react',
    model,
    prompt: 'p',
    tools: [fast, slow],
    store,
    leaseMs: TEN_MINUTES,
  });
  return { agent, model };
}

function detachSuite(open: () => Promise<{ store: RunStore; close: () => Promise<void> }>) {
  let store: RunStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(async () => close());

  it('keeps a tool result that settles within the bound; another instance takes over at once', async () => {
    const executions = new Map<string, number>();
    const slowGate = gate();
    const first = agentOn(store, executions, { slowGate });
    const run = first.agent.run({ sessionId: 'detach-session-1', input: 'go', limits: { maxLoops: 5 } });
    await slowGate.reached;
    const detached = run.detach({ settleMs: 60_000 });
    slowGate.open();
    await detached;
    const error = await run.result().catch((caught: unknown) => caught);
    expect(RunDetachedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'run-detached', runId: run.runId, sessionId: 'detach-session-1' });
    const released = await store.getRun(run.runId);
    expect(released).toMatchObject({ status: 'running', ownerId: null });
    expect(first.model.requests).toHaveLength(2);

    const second = agentOn(store, executions);
    const result = await second.agent.run({ sessionId: 'detach-session-1', runId: run.runId }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'all done', loops: 3 });
    // The slow result was saved before the hand-over: the taker only asks for the answer.
    expect(second.model.requests).toHaveLength(1);
    expect(Object.fromEntries(executions)).toEqual({ fast: 1, slow: 1 });
    const journal = await store.readJournal(run.runId);
    const started = journal.filter((entry) => entry.type === 'run-started');
    expect(started).toHaveLength(1);
    const data = started[0]?.data as { deadlineAt: number; execution: { maxLoops: number } };
    expect(data.execution.maxLoops).toBe(5);
    expect(journal.filter((entry) => entry.type === 'loop-started')).toHaveLength(3);
    expect(new Set(journal.map((entry) => entry.epoch))).toEqual(new Set([1, 2]));
    expect((await store.getRun(run.runId))?.deadlineAt).toBe(data.deadlineAt);
  });

  it('cuts a call that does not settle within the bound: the taker records it unknown, as after a crash', async () => {
    const executions = new Map<string, number>();
    const slowGate = gate();
    const first = agentOn(store, executions, { slowGate });
    const run = first.agent.run({ sessionId: 'detach-session-2', input: 'go' });
    await slowGate.reached;
    await run.detach({ settleMs: 50 });
    await expect(run.result()).rejects.toSatisfy(RunDetachedError.isInstance);
    const second = agentOn(store, executions);
    const result = await second.agent.run({ sessionId: 'detach-session-2', runId: run.runId }).result();
    slowGate.open();
    expect(result).toMatchObject({ status: 'succeeded', output: 'all done', loops: 3 });
    const journal = await store.readJournal(run.runId);
    const unknown = journal.filter((entry) => JSON.stringify(entry.data).includes('"kind":"unknown-outcome"'));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((entry) => entry.epoch === 2)).toBe(true);
    // Nothing the first owner did after the cut reached the journal.
    expect(journal.filter((entry) => entry.epoch === 1 && entry.type === 'operation-finished')).toHaveLength(1);
    expect(executions.get('fast')).toBe(1);
  });

  it('saves a model response that arrives within the bound; a live owner is still never preempted', async () => {
    const executions = new Map<string, number>();
    const modelGate = gate();
    let calls = 0;
    const model = new ScriptedModel({
      respond: async () => {
        calls += 1;
        if (calls === 1) {
          modelGate.reach();
          await modelGate.opened;
          return { toolCalls: [{ name: 'fast' }] };
        }
        return { text: 'after fast' };
      },
    });
    const fast = tool({
      name: 'fast',
      description: 'Answers at once.',
      parameters: z.object({}),
      execute: () => {
        executions.set('fast', (executions.get('fast') ?? 0) + 1);
        return 'fast done';
      },
    });
    const agent = new Agent({ name: 'handover', mode: 'react', model, prompt: 'p', tools: [fast], store, leaseMs: TEN_MINUTES });
    const run = agent.run({ sessionId: 'detach-session-3', input: 'go' });
    await modelGate.reached;
    // While the owner is alive and has not let go, another instance is refused.
    const early = await agent
      .run({ sessionId: 'detach-session-3', runId: run.runId })
      .result()
      .catch((caught: unknown) => caught);
    expect(RunOwnedElsewhereError.isInstance(early)).toBe(true);
    const detached = run.detach({ settleMs: 60_000 });
    modelGate.open();
    await detached;
    await expect(run.result()).rejects.toSatisfy(RunDetachedError.isInstance);
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'model-responded')).toHaveLength(1);
    // The tool the saved response asked for was not started by the owner that let go.
    expect(executions.get('fast')).toBeUndefined();
    const result = await agent.run({ sessionId: 'detach-session-3', runId: run.runId }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'after fast', loops: 2 });
    expect(calls).toBe(2);
    expect(executions.get('fast')).toBe(1);
  });
}

describe('run.detach() on the memory store', () => {
  detachSuite(async () => {
    const store = new MemoryRunStore();
    return { store, close: () => store.close() };
  });
});

describe('run.detach() on a SQLite file', () => {
  detachSuite(async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agentloom-detach-'));
    const store = new SqliteRunStore({ path: join(directory, 'runs.db') });
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  });
});

await describeWithPostgres('run.detach() on PostgreSQL', () => {
  detachSuite(async () => {
    const schema = uniqueSchemaName('detach');
    const store = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 4 });
    await store.setup();
    return {
      store,
      close: async () => {
        await store.close();
        await dropSchema(schema);
      },
    };
  });
});
