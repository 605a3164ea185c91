/**
 * `workflowRun.detach()` on every durable store: a host hands a workflow run over while its two
 * agent nodes run in parallel — one has finished, the other's tool call is in flight. Another
 * process's workflow instance (workflow and agents with a 10-minute lease, so only released
 * leases let it in) takes the run over at once: the finished agent node is not run again, the
 * unfinished one continues its own inner run, no tool is redone, the input and the
 * deadline are kept. Run on memory, a real SQLite file and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/capabilities/tools/tool.js';
import { RunDetachedError, RunOwnedElsewhereError } from '../../src/core/errors/index.js';
import { Agent } from '../../src/engine/agent/agent.js';
import { END, START } from '../../src/engine/workflow/channels/channel-names.js';
import { appendList, lastValue } from '../../src/engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../../src/engine/workflow/graph/workflow-builder.js';
import { innerRunIdOf } from '../../src/engine/workflow/nodes/agent-node.js';
import { MemoryRunStore } from '../../src/store/memory/memory-run-store.js';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import type { JournalEntry, RunStore } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../postgres/postgres-availability.js';

const TEN_MINUTES = 600_000;

/** A gate a test opens: the slow tool waits on it and says when it was reached. */
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
 * One process's workflow: `summarize` (answers at once) and `find` (calls `slow`, then answers)
 * in parallel, joined by `report` (a function node). Tool and node executions are counted
 * across every instance; each instance has its own models, so their calls say who ran what.
 */
function workflowOn(store: RunStore, executions: Map<string, number>, slowGate?: ReturnType<typeof gate>) {
  const count = (name: string) => executions.set(name, (executions.get(name) ?? 0) + 1);
  const slow = tool({
    name: 'slow',
    description: 'Answers when let go.',
    parameters: z.object({ topic: z.string() }),
    execute: async ({ topic }) => {
      count('slow');
      if (slowGate) {
        slowGate.reach();
        await slowGate.opened;
      }
      return `found ${topic}`;
    },
  });
  const summarizerModel = new ScriptedModel({ respond: () => ({ text: 'summary' }) });
  const finderModel = new ScriptedModel({
    respond: (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: 'risks found' }
        : { toolCalls: [{ name: 'slow', arguments: { topic: 'risks' } }] },
  });
  const agent = (name: string, model: ScriptedModel, tools: (typeof slow)[]) =>
    new Agent({ name, mode: 'react', model, prompt: `You are ${name}.`, tools, store, leaseMs: TEN_MINUTES });
  const workflow = new WorkflowBuilder({
    name: 'handover',
    state: { topic: lastValue(z.string()), notes: appendList(z.string()), report: lastValue(z.string()) },
  })
    .addAgentNode('summarize', agent('summarizer', summarizerModel, []), { input: 'topic', output: 'notes' })
    .addAgentNode('find', agent('finder', finderModel, [slow]), { input: 'topic', output: 'notes' })
    .addNode('report', (state) => {
      count('report');
      return { report: [...state.notes].sort().join(' + ') };
    })
    .addEdge(START, 'summarize')
    .addEdge(START, 'find')
    .addEdge(['summarize', 'find'], 'report')
    .addEdge('report', END)
    .compile({ store, leaseMs: TEN_MINUTES, timeoutMs: TEN_MINUTES });
  return { workflow, summarizerModel, finderModel };
}

/** Waits until the summarize node's inner run has ended succeeded in the store. */
async function summarizeFinished(store: RunStore, runId: string): Promise<void> {
  for (;;) {
    const inner = await store.getRun(innerRunIdOf(runId, '0/summarize'));
    if (inner?.status === 'succeeded') return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function detachSuite(open: () => Promise<{ store: RunStore; close: () => Promise<void> }>) {
  let store: RunStore;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ store, close } = await open());
  });
  afterAll(async () => close());

  it('keeps a tool result that settles within the bound; another instance takes over at once, the finished agent not run again', async () => {
    const executions = new Map<string, number>();
    const slowGate = gate();
    const first = workflowOn(store, executions, slowGate);
    const run = first.workflow.run({ sessionId: 'wf-detach-1', input: { topic: 'heat pumps' } });
    await slowGate.reached;
    await summarizeFinished(store, run.runId);
    // While the owner is alive and has not let go, another instance is refused.
    const early = await workflowOn(store, executions)
      .workflow.run({ sessionId: 'wf-detach-1', runId: run.runId })
      .result()
      .catch((caught: unknown) => caught);
    expect(RunOwnedElsewhereError.isInstance(early)).toBe(true);

    const detached = run.detach({ settleMs: 60_000 });
    slowGate.open();
    await detached;
    const error = await run.result().catch((caught: unknown) => caught);
    expect(RunDetachedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'run-detached', runId: run.runId, sessionId: 'wf-detach-1' });
    const findRunId = innerRunIdOf(run.runId, '0/find');
    // Both leases were let go: the workflow's and the unfinished inner run's.
    expect(await store.getRun(run.runId)).toMatchObject({ status: 'running', ownerId: null });
    expect(await store.getRun(findRunId)).toMatchObject({ status: 'running', ownerId: null });
    // The finder's tool result settled within the bound and was saved; no new model call was started.
    expect(first.finderModel.requests).toHaveLength(1);
    const innerBefore = await store.readJournal(findRunId);
    expect(innerBefore.filter((entry) => entry.type === 'operation-finished')).toHaveLength(1);

    const second = workflowOn(store, executions);
    const result = await second.workflow.run({ sessionId: 'wf-detach-1', runId: run.runId }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: { report: 'risks found + summary' } });
    // The finished agent node was not run again; the unfinished one continued its own inner run.
    expect(second.summarizerModel.requests).toHaveLength(0);
    expect(second.finderModel.requests).toHaveLength(1);
    expect(Object.fromEntries(executions)).toEqual({ slow: 1, report: 1 });
    const inner = await store.readJournal(findRunId);
    expect(inner.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    expect(new Set(inner.map((entry) => entry.epoch))).toEqual(new Set([1, 2]));
    const journal = await store.readJournal(run.runId);
    const started = journal.filter((entry) => entry.type === 'workflow-started');
    expect(started).toHaveLength(1);
    expect(journal.filter((entry) => entry.type === 'agent-invoked')).toHaveLength(2);
    expect(new Set(journal.map((entry) => entry.epoch))).toEqual(new Set([1, 2]));
    const { deadlineAt } = (started[0] as JournalEntry).data as { deadlineAt: number };
    expect((await store.getRun(run.runId))?.deadlineAt).toBe(deadlineAt);
  });

  it('cuts a tool call that does not settle within the bound; the taker continues the inner run at once', async () => {
    const executions = new Map<string, number>();
    const slowGate = gate();
    const first = workflowOn(store, executions, slowGate);
    const run = first.workflow.run({ sessionId: 'wf-detach-2', input: { topic: 'heat pumps' } });
    await slowGate.reached;
    await summarizeFinished(store, run.runId);
    await run.detach({ settleMs: 50 });
    await expect(run.result()).rejects.toSatisfy(RunDetachedError.isInstance);
    const findRunId = innerRunIdOf(run.runId, '0/find');
    expect(await store.getRun(findRunId)).toMatchObject({ status: 'running', ownerId: null });

    const second = workflowOn(store, executions);
    const result = await second.workflow.run({ sessionId: 'wf-detach-2', runId: run.runId }).result();
    slowGate.open();
    expect(result).toMatchObject({ status: 'succeeded' });
    expect(second.summarizerModel.requests).toHaveLength(0);
    expect(executions.get('report')).toBe(1);
    const inner = await store.readJournal(findRunId);
    expect(inner.filter((entry) => entry.type === 'run-started')).toHaveLength(1);
    // The cut call is the taker's to settle (unknown outcome), as after a crash; nothing of the first owner after the cut.
    const unknown = inner.filter((entry) => JSON.stringify(entry.data).includes('"kind":"unknown-outcome"'));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((entry) => entry.epoch === 2)).toBe(true);
    expect(inner.filter((entry) => entry.epoch === 1 && entry.type === 'operation-finished')).toHaveLength(0);
  });
}

describe('workflowRun.detach() on the memory store', () => {
  detachSuite(async () => {
    const store = new MemoryRunStore();
    return { store, close: () => store.close() };
  });
});

describe('workflowRun.detach() on a SQLite file', () => {
  detachSuite(async () => {
    const directory = mkdtempSync(join(tmpdir(), 'agentloom-workflow-detach-'));
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

await describeWithPostgres('workflowRun.detach() on PostgreSQL', () => {
  detachSuite(async () => {
    const schema = uniqueSchemaName('wfdetach');
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
