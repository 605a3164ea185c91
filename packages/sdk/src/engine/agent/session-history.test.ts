import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../capabilities/tools/tool.js';
import { RunClient } from '../../client/run-client.js';
import { OwnershipLostError } from '../../core/errors/index.js';
import type { Message } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import type { JournalEntry, ReadJournalOptions, ReadSessionRequest, SessionRunRead } from '../../store/run-store.js';
import { SqliteRunStore } from '../../store/sqlite/sqlite-run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';

/**
 * History by reference (issue 18, item 7; ADR 0010), on a real SQLite file: a new run's
 * `run-started` refers to the earlier runs instead of copying them, the session is read in one
 * query with only the history window's journals, and a resumed run rebuilds the same history.
 */

/** A real SQLite store that also counts what it is asked to read (instrumentation, not a double). */
class CountingSqliteStore extends SqliteRunStore {
  journalReads: string[] = [];
  sessionReads: Array<{ request: ReadSessionRequest; journals: string[] }> = [];

  override async readJournal(runId: string, options?: ReadJournalOptions): Promise<JournalEntry[]> {
    this.journalReads.push(runId);
    return super.readJournal(runId, options);
  }

  override async readSession(request: ReadSessionRequest): Promise<SessionRunRead[]> {
    const reads = await super.readSession(request);
    this.sessionReads.push({ request, journals: reads.filter((read) => read.journal).map((read) => read.run.runId) });
    return reads;
  }
}

const directories: string[] = [];
function storePath(): string {
  const directory = mkdtempSync(join(tmpdir(), 'agentloom-session-history-'));
  directories.push(directory);
  return join(directory, 'runs.db');
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const lastUser = (request: ModelRequest) => request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
const runId = (session: string, index: number) => `${session}-run-${String(index).padStart(4, '0')}`;

async function runStarted(store: SqliteRunStore, id: string): Promise<Record<string, unknown>> {
  const journal = await store.readJournal(id);
  return journal.find((entry) => entry.type === 'run-started')?.data as Record<string, unknown>;
}

describe('session history by reference (issue 18, ADR 0010)', () => {
  it('keeps run-started the same size whatever the session length, referring to the runs it is made of', async () => {
    const store = new SqliteRunStore({ path: storePath() });
    const model = new ScriptedModel({ keepRequests: 1, respond: (request) => ({ text: `answer to ${lastUser(request)}` }) });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 2 } });
    const sizes: number[] = [];
    for (const [session, runs] of [
      ['short', 4],
      ['long', 40],
    ] as const) {
      for (let index = 1; index <= runs; index += 1) {
        await agent.run({ sessionId: session, runId: runId(session, index), input: `question ${index}` }).result();
      }
      const started = await runStarted(store, runId(session, runs));
      expect(started.history).toBeUndefined();
      expect(started.formatVersion).toBe(2);
      expect(started.historyFrom).toEqual({
        through: { runId: runId(session, runs - 1), createdAt: expect.any(Number) },
        count: runs - 1,
        full: [runId(session, runs - 2), runId(session, runs - 1)],
        unfinished: [],
      });
      sizes.push(JSON.stringify(started).length);
    }
    // Only the texts differ: three run ids ('long' is one character shorter than 'short'), the
    // count (39 against 3) and the input ('question 40' against 'question 4').
    expect((sizes[1] as number) - (sizes[0] as number)).toBe(-3 + 1 + 1);
    // The model still sees every earlier run (H-3): the 37 older ones summarised, the 2 latest in full.
    const messages = model.requests.at(-1)?.messages ?? [];
    const summary = messages[0]?.content ?? '';
    expect(summary).toContain('Run 1: succeeded\n  User: question 1\n  Final result: answer to question 1');
    expect(summary).toContain('Run 37: succeeded');
    expect(summary).not.toContain('Run 38:');
    expect(messages.slice(1).map((message) => message.content)).toEqual([
      'question 38',
      'answer to question 38',
      'question 39',
      'answer to question 39',
      'question 40',
    ]);
    await store.close();
  });

  it('reads the session once per new run, with the journals of the history window only', async () => {
    const store = new CountingSqliteStore({ path: storePath() });
    const model = new ScriptedModel({ keepRequests: 1, respond: (request) => ({ text: `answer to ${lastUser(request)}` }) });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 2 } });
    for (let index = 1; index <= 12; index += 1) {
      await agent.run({ sessionId: 's', runId: runId('s', index), input: `question ${index}` }).result();
    }
    store.journalReads = [];
    store.sessionReads = [];
    await agent.run({ sessionId: 's', runId: runId('s', 13), input: 'question 13' }).result();
    // No earlier run's journal is read on its own; one session query brings the window's two.
    expect(store.journalReads.filter((id) => id !== runId('s', 13))).toEqual([]);
    expect(store.sessionReads).toHaveLength(1);
    expect(store.sessionReads[0]?.journals).toEqual([runId('s', 11), runId('s', 12)]);
    // The earlier runs are still all in the raw record (H-1), from their digests.
    const record = await new RunClient({ store: agent.store }).readSessionHistory('s');
    expect(record.map((run) => run.input)).toEqual(Array.from({ length: 13 }, (_, index) => `question ${index + 1}`));
    expect(record[0]?.messages.map((message) => message.content)).toEqual(['question 1', 'answer to question 1']);
    await store.close();
  });

  it('gives a resumed run the history it started with, though the session moved on meanwhile', async () => {
    const store = new SqliteRunStore({ path: storePath() });
    let finish: (value: string) => void = () => {};
    let started: () => void = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = tool({
      name: 'wait',
      description: 'Waits to be released.',
      parameters: z.object({}),
      execute: () =>
        new Promise<string>((resolve) => {
          finish = resolve;
          started();
        }),
    });
    const model = new ScriptedModel({
      respond: (request) => {
        const question = request.messages.filter((message) => message.role === 'user').at(-1)?.content;
        if (question === 'long task' && !request.messages.some((message) => message.role === 'tool')) {
          return { toolCalls: [{ name: 'wait', id: 'call-1' }] };
        }
        return { text: `answer to ${question}` };
      },
    });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, tools: [wait], context: { historyRuns: 1 } });
    await agent.run({ sessionId: 's', runId: 'r1', input: 'first' }).result();
    await agent.run({ sessionId: 's', runId: 'r2', input: 'second' }).result();
    const interrupted = agent.run({ sessionId: 's', runId: 'r3', input: 'long task' });
    const lost = interrupted.result().catch((error: unknown) => error);
    await toolStarted;
    const before: readonly Message[] = model.requests.at(-1)?.messages ?? [];
    // The session moves on while r3 is under way; r4 sees r3 as unfinished (H-3).
    await agent.run({ sessionId: 's', runId: 'r4', input: 'meanwhile' }).result();
    // r3's owner is gone (its lease given up); another executor resumes it.
    const run = await store.getRun('r3');
    await store.releaseLease('r3', run?.epoch ?? 0);
    const resumed = await agent.run({ sessionId: 's', runId: 'r3' }).result();
    expect(resumed.output).toBe('answer to long task');
    const after = model.requests.at(-1)?.messages ?? [];
    const historyLength = before.findIndex((message) => message.content === 'long task');
    expect(historyLength).toBe(3);
    expect(after.slice(0, historyLength)).toEqual(before.slice(0, historyLength));
    expect(JSON.stringify(after)).not.toContain('meanwhile');
    finish('late');
    expect(OwnershipLostError.isInstance(await lost)).toBe(true);
    await store.close();
  });

  it('still reads and resumes runs whose run-started copies the history (format 1)', async () => {
    const store = new SqliteRunStore({ path: storePath() });
    const model = new ScriptedModel({ respond: (request) => ({ text: `answer to ${lastUser(request)}` }) });
    const agent = new Agent({ name: 'h', mode: 'react', model, prompt: 'p', store, context: { historyRuns: 1 } });
    // A run-started exactly as the previous version wrote it: format 1, the history copied in.
    await agent.run({ sessionId: 'scratch', runId: 'scratch-1', input: 'x' }).result();
    const { historyFrom: _reference, ...current } = await runStarted(store, 'scratch-1');
    const formatOne = (input: string, history: Message[]) => ({
      type: 'run-started',
      data: { ...current, formatVersion: 1, input, history, carried: [] },
    });
    const lease = { ownerId: 'old-owner', leaseMs: 60_000, deadlineAt: Date.now() + 3_600_000 };
    await store.acquire({ runId: 'o1', sessionId: 'old', ...lease, initialEntries: [formatOne('old question', [])] });
    const result = { runId: 'o1', sessionId: 'old', status: 'succeeded' as const, output: 'old answer', loops: 1 };
    await store.append({
      runId: 'o1',
      epoch: 1,
      entries: [
        { type: 'loop-started', taskId: 'entry', data: { loop: 1 } },
        {
          type: 'model-responded',
          taskId: 'entry',
          data: {
            loop: 1,
            attempt: 1,
            message: { role: 'assistant', content: 'old answer' },
            finishReason: 'stop',
            usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          },
        },
        { type: 'run-finished', data: { ...result, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } },
      ],
      chargeLoops: 1,
      terminal: { ...result, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
    });
    const copied: Message[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer' },
    ];
    await store.acquire({ runId: 'o2', sessionId: 'old', ...lease, initialEntries: [formatOne('interrupted question', copied)] });
    await store.releaseLease('o2', 1);

    // The interrupted format-1 run resumes with the history its run-started carries.
    expect((await agent.run({ sessionId: 'old', runId: 'o2' }).result()).output).toBe('answer to interrupted question');
    expect(model.requests.at(-1)?.messages.map((message) => message.content)).toEqual([
      'old question',
      'old answer',
      'interrupted question',
    ]);
    // A new run reads the old runs from their journals (they have no digest) and refers to them.
    await agent.run({ sessionId: 'old', runId: 'n3', input: 'new question' }).result();
    const messages = model.requests.at(-1)?.messages ?? [];
    expect(messages[0]?.content).toContain('Run 1: succeeded\n  User: old question\n  Final result: old answer');
    expect(messages.slice(1).map((message) => message.content)).toEqual([
      'interrupted question',
      'answer to interrupted question',
      'new question',
    ]);
    expect((await runStarted(store, 'n3')).historyFrom).toMatchObject({ count: 2, full: ['o2'] });
    expect(
      (await new RunClient({ store: agent.store }).readSessionHistory('old')).map((run) => [run.input, run.result?.output]),
    ).toEqual([
      ['old question', 'old answer'],
      ['interrupted question', 'answer to interrupted question'],
      ['new question', 'answer to new question'],
    ]);
    await store.close();
  });
});
