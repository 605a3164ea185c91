import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../capabilities/tools/tool.js';
import {
  ApprovalNotFoundError,
  InvalidRunRequestError,
  RunAlreadyExistsError,
  RunNotActiveError,
  RunNotFinishedError,
  RunNotFoundError,
} from '../core/errors/index.js';
import { Agent } from '../engine/agent/agent.js';
import { START } from '../engine/workflow/channels/channel-names.js';
import { appendList, lastValue } from '../engine/workflow/channels/state-fields.js';
import { WorkflowBuilder } from '../engine/workflow/graph/workflow-builder.js';
import { MemoryRunStore } from '../store/memory/memory-run-store.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { RunClient } from './run-client.js';

/** A model that calls `add` once, then answers with the tool's result. */
function addingModel(): ScriptedModel {
  return new ScriptedModel({
    respond: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      return result ? { text: `The sum is ${result.content}.` } : { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
    },
  });
}

const add = tool({
  name: 'add',
  description: 'Adds.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

async function collect<Event>(events: AsyncIterable<Event>): Promise<Event[]> {
  const seen: Event[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('RunClient', () => {
  it('reads and follows the same durable events the owner saw live, with dense positions', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({ name: 'adder', mode: 'react', model: addingModel(), prompt: 'p', tools: [add], store });
    const run = agent.run({ sessionId: 's', input: 'What is 2 + 3?' });
    const live = await collect(run.events());
    expect((await run.result()).output).toBe('The sum is 5.');
    const client = new RunClient({ store });
    const read = await client.readEvents(run.runId);
    const durableLive = live.filter((event) => event.type !== 'model-call-start');
    expect(read).toEqual(durableLive);
    expect(read[0]?.type).toBe('run-start');
    expect(read.at(-1)?.type).toBe('run-finish');
    const sequences = read.map((event) => event.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(await collect(client.follow(run.runId))).toEqual(read);
    // In batches: one per journal read (the run has ended: one read holds everything), never empty.
    const middle = read[3]?.sequence ?? 0;
    expect(await collect(client.followBatches(run.runId))).toEqual([read]);
    // Opened: checked when the call settles (before any iteration), then the same batches.
    expect(await collect(await client.openFollow(run.runId))).toEqual([read]);
    await expect(client.openFollow('no-such-run')).rejects.toBeInstanceOf(RunNotFoundError);
    expect(await collect(client.followBatches(run.runId, { afterSequence: middle }))).toEqual([
      read.filter((event) => event.sequence > middle),
    ]);
    expect(await client.readEvents(run.runId, { afterSequence: middle })).toEqual(
      read.filter((event) => event.sequence > middle),
    );
    // Resuming after the last event of an ended run (a reconnect right after the end): nothing
    // more, and the follow is over rather than waiting for writes that cannot come.
    const last = read.at(-1)?.sequence ?? 0;
    expect(await collect(client.followBatches(run.runId, { afterSequence: last }))).toEqual([]);
    expect(await collect(await client.openFollow(run.runId, { afterSequence: last }))).toEqual([]);
    // Live-only events carry the position of the last durable entry before them.
    const modelStartIndex = live.findIndex((event) => event.type === 'model-call-start');
    expect(live[modelStartIndex]?.sequence).toBe(live[modelStartIndex - 1]?.sequence);
  });

  it('creates a pending run, takes supplements and stops for it, and ends it user-stop with its input recorded', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    const created = await client.createRun({
      runId: 'pending-1',
      sessionId: 's',
      kind: 'agent',
      name: 'adder',
      input: 'What is 2 + 3?',
      metadata: { release: 'r-7' },
    });
    expect(created).toMatchObject({ created: true, run: { status: 'pending', metadata: { release: 'r-7' } } });
    expect(
      (await client.createRun({ runId: 'pending-1', sessionId: 's', kind: 'agent', name: 'adder', input: 'What is 2 + 3?' }))
        .created,
    ).toBe(false);
    await expect(
      client.createRun({ runId: 'pending-1', sessionId: 's', kind: 'agent', name: 'adder', input: 'Other?' }),
    ).rejects.toSatisfy(RunAlreadyExistsError.isInstance);
    await client.supplement('pending-1', 'Also say hello.');
    await client.requestStop('pending-1', { reason: 'changed my mind' });
    const described = await client.describeRun('pending-1');
    expect(described).toMatchObject({
      status: 'stopped',
      reason: 'user-stop',
      input: 'What is 2 + 3?',
      loops: 0,
      stopRequest: { reason: 'changed my mind', requestedBy: 'user' },
    });
    const events = await client.readEvents('pending-1');
    expect(events.map((event) => event.type)).toEqual(['supplement-accept', 'stop-request', 'run-finish']);
    await expect(client.requestStop('pending-1')).rejects.toSatisfy(RunNotActiveError.isInstance);
    const model = addingModel();
    const agent = new Agent({ name: 'adder', mode: 'react', model, prompt: 'p', tools: [add], store });
    expect(await agent.run({ sessionId: 's', runId: 'pending-1' }).result()).toMatchObject({
      status: 'stopped',
      reason: 'user-stop',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('lets a worker execute a pending run with its recorded input and the supplements it received', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    await client.createRun({
      runId: 'pending-2',
      sessionId: 's',
      kind: 'agent',
      name: 'adder',
      input: 'What is 2 + 3?',
      metadata: { release: 'r-1' },
    });
    await client.supplement('pending-2', 'Be brief.');
    expect(await client.ownerOf('pending-2')).toBeNull();
    const model = addingModel();
    const agent = new Agent({ name: 'adder', mode: 'react', model, prompt: 'p', tools: [add], store });
    const handle = agent.run({ sessionId: 's', runId: 'pending-2' });
    // The owner as the row holds it while the run executes: the epoch its start event reports.
    for await (const event of handle.events()) {
      if (event.type !== 'run-start') continue;
      // The handle's own owner id is the one the store names (a host reports it without a read).
      expect(await client.ownerOf('pending-2')).toMatchObject({ epoch: event.epoch, live: true, ownerId: handle.ownerId });
      break;
    }
    const result = await handle.result();
    expect(await client.ownerOf('pending-2')).toBeNull();
    expect(result).toMatchObject({ status: 'succeeded', output: 'The sum is 5.' });
    const firstRequest = model.requests[0]?.messages.map((message) => message.content);
    expect(firstRequest).toEqual(expect.arrayContaining(['What is 2 + 3?', 'Be brief.']));
    const described = await client.describeRun('pending-2');
    expect(described).toMatchObject({
      kind: 'agent',
      name: 'adder',
      status: 'succeeded',
      input: 'What is 2 + 3?',
      metadata: { release: 'r-1' },
    });
    expect(described.agent?.supplements).toEqual([expect.objectContaining({ text: 'Be brief.', status: 'consumed' })]);
    expect(described.agent?.operations).toEqual([
      expect.objectContaining({ toolName: 'add', status: 'succeeded', attempts: 1, content: '5', arguments: { a: 2, b: 3 } }),
    ]);
    expect((await client.listRuns({ metadata: { release: 'r-1' } })).items.map((run) => run.runId)).toEqual(['pending-2']);
  });

  it('starts a pending run with one journal read: the journal after `run-started` is the one read plus that entry', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    await client.createRun({ runId: 'pending-3', sessionId: 's', kind: 'agent', name: 'adder', input: 'What is 2 + 3?' });
    await client.supplement('pending-3', 'Be brief.');
    const reads: string[] = [];
    const readJournal = store.readJournal.bind(store);
    store.readJournal = (runId, options) => {
      reads.push(runId);
      return readJournal(runId, options);
    };
    const model = addingModel();
    const agent = new Agent({ name: 'adder', mode: 'react', model, prompt: 'p', tools: [add], store });
    const result = await agent.run({ sessionId: 's', runId: 'pending-3' }).result();
    expect(result).toMatchObject({ status: 'succeeded', output: 'The sum is 5.' });
    expect(reads).toEqual(['pending-3']);
    // The fold of the journal it built is the fold of the stored one: a takeover sees the same run.
    expect(model.requests[0]?.messages.map((message) => message.content)).toEqual(
      expect.arrayContaining(['What is 2 + 3?', 'Be brief.']),
    );
    expect((await client.describeRun('pending-3')).agent?.supplements).toEqual([
      expect.objectContaining({ text: 'Be brief.', status: 'consumed' }),
    ]);
  });

  it("opens a live run's follow with one read: the entries read with the run are its first read, since the watch began before it", async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    await client.createRun({ runId: 'live-1', sessionId: 's', kind: 'agent', name: 'adder', input: 'What is 2 + 3?' });
    const reads: string[] = [];
    const readJournal = store.readJournal.bind(store);
    store.readJournal = (runId, options) => {
      reads.push(runId);
      return readJournal(runId, options);
    };
    const followed = collect(await client.openFollow('live-1'));
    // The follower has its first read (the one with the run) and waits for a write: no journal read yet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([]);
    const agent = new Agent({ name: 'adder', mode: 'react', model: addingModel(), prompt: 'p', tools: [add], store });
    await agent.run({ sessionId: 's', runId: 'live-1' }).result();
    // Every event once, in order, to the end: none lost between that read and the first write.
    const events = (await followed).flat();
    expect(events).toEqual(await client.readEvents('live-1'));
    expect(events.at(-1)?.type).toBe('run-finish');
  });

  it('stops a run owned by another agent object through the journal, within a third of the lease', async () => {
    const store = new MemoryRunStore();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = tool({
      name: 'add',
      description: 'Adds slowly.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => {
        await held;
        return String(a + b);
      },
    });
    const model = addingModel();
    const agent = new Agent({ name: 'adder', mode: 'react', model, prompt: 'p', tools: [slow], store, leaseMs: 150 });
    const run = agent.run({ sessionId: 's', input: 'What is 2 + 3?' });
    const client = new RunClient({ store });
    for await (const event of run.events()) {
      if (event.type !== 'tool-call-start') continue;
      await client.requestStop(run.runId, { reason: 'enough' });
      // The owner learns of it at a lease renewal; then the call in flight settles and is kept.
      setTimeout(release, 200);
    }
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop', loops: 1 });
    expect(model.requests).toHaveLength(1);
    const described = await client.describeRun(run.runId);
    expect(described.agent?.operations[0]).toMatchObject({ status: 'succeeded', content: '5' });
    expect(described.owner).toBeNull();
  });

  it('writes run.stop() to the journal so that a later owner honours it', async () => {
    const store = new MemoryRunStore();
    const agent = new Agent({ name: 'adder', mode: 'react', model: addingModel(), prompt: 'p', tools: [add], store });
    const run = agent.run({ sessionId: 's', input: 'What is 2 + 3?' });
    await run.stop({ reason: 'bye' });
    await run.result();
    const journal = await store.readJournal(run.runId);
    expect(journal.filter((entry) => entry.type === 'stop-requested')).toHaveLength(1);
  });

  it('refuses unknown approvals, bad cursors and limits, and deleting unfinished runs; deletes leave tombstones', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    await client.createRun({ runId: 'r-1', sessionId: 's-1', kind: 'agent', name: 'a', input: 'q' });
    await expect(client.decideApproval('r-1', { approvalId: 'nope', approved: true })).rejects.toSatisfy(
      ApprovalNotFoundError.isInstance,
    );
    await expect(client.listRuns({ cursor: 'garbage' })).rejects.toSatisfy(InvalidRunRequestError.isInstance);
    await expect(client.listRuns({ limit: 0 })).rejects.toSatisfy(InvalidRunRequestError.isInstance);
    await expect(client.deleteRun('r-1')).rejects.toSatisfy(RunNotFinishedError.isInstance);
    await expect(client.deleteSession('s-1')).rejects.toSatisfy(RunNotFinishedError.isInstance);
    await client.requestStop('r-1');
    await client.deleteSession('s-1');
    await expect(client.describeRun('r-1')).rejects.toSatisfy((error) => RunNotFoundError.isInstance(error) && error.deleted);
    await expect(client.describeRun('never')).rejects.toSatisfy((error) => RunNotFoundError.isInstance(error) && !error.deleted);
    await expect(client.createRun({ runId: 'r-1', sessionId: 's-1', kind: 'agent', name: 'a', input: 'q' })).rejects.toSatisfy(
      RunNotFoundError.isInstance,
    );
    const agent = new Agent({ name: 'a', mode: 'react', model: addingModel(), prompt: 'p', tools: [add], store });
    await expect(agent.run({ sessionId: 's-1', runId: 'r-1' }).result()).rejects.toSatisfy(RunNotFoundError.isInstance);
  });

  it('pages through runs and sessions without overlap', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    for (let index = 0; index < 5; index += 1) {
      await client.createRun({ runId: `p-${index}`, sessionId: `session-${index % 2}`, kind: 'agent', name: 'a', input: 'q' });
    }
    const first = await client.listRuns({ limit: 2 });
    const second = await client.listRuns({ limit: 2, cursor: first.nextCursor as string });
    const third = await client.listRuns({ limit: 2, cursor: second.nextCursor as string });
    const ids = [...first.items, ...second.items, ...third.items].map((run) => run.runId);
    expect(new Set(ids).size).toBe(5);
    expect(third.nextCursor).toBeUndefined();
    const sessions = await client.listSessions({ limit: 1 });
    const rest = await client.listSessions({ limit: 5, cursor: sessions.nextCursor as string });
    expect([...sessions.items, ...rest.items].map((session) => session.runs).sort()).toEqual([2, 3]);
  });

  it('creates, stops and lets a worker execute workflow runs the same way', async () => {
    const store = new MemoryRunStore();
    const client = new RunClient({ store });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = tool({
      name: 'slow',
      description: 'Slow.',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        started();
        await held;
        return text.toUpperCase();
      },
    });
    const workflow = new WorkflowBuilder({ name: 'shout', state: { text: lastValue(z.string()), out: appendList(z.string()) } })
      .addCapabilityNode('first', slow, { input: { text: 'text' }, output: 'out' })
      .addCapabilityNode('second', slow, { input: { text: 'text' }, output: 'out' })
      .addEdge(START, 'first')
      .addEdge('first', 'second')
      .compile({ store, leaseMs: 150 });

    await client.createRun({
      runId: 'w-1',
      sessionId: 's',
      kind: 'workflow',
      name: 'shout',
      input: { text: 'hi' },
      metadata: { app: 'a' },
    });
    await client.requestStop('w-1');
    expect(await workflow.run({ sessionId: 's', runId: 'w-1' }).result()).toMatchObject({
      status: 'stopped',
      reason: 'user-stop',
      steps: 0,
    });

    await client.createRun({ runId: 'w-2', sessionId: 's', kind: 'workflow', name: 'shout', input: { text: 'hi' } });
    const run = workflow.run({ sessionId: 's', runId: 'w-2' });
    await running;
    await client.requestStop('w-2', { reason: 'enough' });
    setTimeout(release, 200);
    expect(await run.result()).toMatchObject({ status: 'stopped', reason: 'user-stop', steps: 1 });
    expect(await client.describeRun('w-2')).toMatchObject({
      kind: 'workflow',
      name: 'shout',
      status: 'stopped',
      input: { text: 'hi' },
    });
    expect((await client.listRuns({ kind: 'workflow' })).items.map((item) => item.runId).sort()).toEqual(['w-1', 'w-2']);
    const read = await client.readEvents('w-2');
    expect(read.map((event) => event.type)).toEqual(['workflow-start', 'stop-request', 'task-finish', 'workflow-finish']);
    expect(await collect(client.follow('w-2'))).toEqual(read);
    const sequences = read.map((event) => event.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    const agent = new Agent({ name: 'adder', mode: 'react', model: addingModel(), prompt: 'p', tools: [add], store });
    await expect(agent.run({ sessionId: 's', runId: 'w-2' }).result()).rejects.toSatisfy(InvalidRunRequestError.isInstance);
  });
});
