import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/messages.js';
import type { ModelRequest } from '../../model/language-model.js';
import { MemoryRunStore } from '../../store/memory/memory-run-store.js';
import type { ReadSessionRequest } from '../../store/run-store.js';
import { ScriptedModel } from '../../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { AgentJournalRecord, HistoryReference } from './agent-journal.js';
import { COMPRESSION_SYSTEM_PROMPT } from './compression/index.js';
import { resolveHistory } from './session/index.js';

const CHECKPOINT_HEAD = '[Summary of the earlier runs of this session: runs 1–';
const userTexts = (messages: readonly Message[]) =>
  messages.filter((message) => message.role === 'user').map((message) => message.content);
const lastUser = (request: ModelRequest) => userTexts(request.messages).at(-1) ?? '';

/**
 * A memory store whose clock moves one millisecond per call (every run is created after the one
 * before it) and that counts the runs each `readSession` answers.
 */
function countingStore() {
  let clock = Date.now();
  const store = new MemoryRunStore({ now: () => (clock += 1) });
  const reads: Array<{ request: ReadSessionRequest; runs: number }> = [];
  const readSession = store.readSession.bind(store);
  store.readSession = async (request) => {
    const answer = await readSession(request);
    reads.push({ request, runs: answer.length });
    return answer;
  };
  return { store, reads };
}

/** Business requests answer `answer <question>`; compression requests answer a short summary. */
function sessionModel(
  onBusiness?: (request: ModelRequest) => Promise<void> | void,
  onCheckpoint?: (request: ModelRequest) => void,
) {
  let checkpoints = 0;
  return new ScriptedModel({
    keepRequests: 0,
    respond: async (request) => {
      if (request.system === COMPRESSION_SYSTEM_PROMPT) {
        onCheckpoint?.(request);
        checkpoints += 1;
        return { text: `checkpoint summary ${checkpoints}` };
      }
      await onBusiness?.(request);
      return { text: `answer to ${lastUser(request)}` };
    },
  });
}

type Started = Extract<AgentJournalRecord, { type: 'run-started' }>['data'];

describe('session checkpoints (ADR 0012, H-3, H-8)', () => {
  it('keeps the history a new run sends and the runs it reads bounded over 300 runs, naming its checkpoint', async () => {
    const { store, reads } = countingStore();
    const firstRequests: ModelRequest[] = [];
    const compressionInputs: number[] = [];
    const model = sessionModel(
      (request) => {
        // A copy: the engine keeps appending to the task's messages after the call.
        firstRequests.push(structuredClone(request));
      },
      (request) => {
        compressionInputs.push(request.messages[0]?.content.length ?? 0);
      },
    );
    const agent = new Agent({
      name: 'long',
      mode: 'react',
      model,
      prompt: 'p',
      store,
      context: { historyRuns: 2, windowTokens: 2000 },
    });
    const runs = 300;
    const readsPerRun: number[] = [];
    for (let index = 1; index <= runs; index += 1) {
      const before = reads.length;
      const result = await agent.run({ sessionId: 'long', runId: `run-${index}`, input: `question ${index}` }).result();
      expect(result.status).toBe('succeeded');
      readsPerRun.push(reads.slice(before).reduce((sum, read) => sum + read.runs, 0));
    }
    const historyChars = firstRequests.map((request) =>
      request.messages.slice(0, -1).reduce((sum, message) => sum + message.content.length, 0),
    );
    const late = historyChars.slice(100);
    // Bounded: the late runs send no more history than the window's share allows, however long the session.
    expect(Math.max(...late)).toBeLessThan(4000);
    expect(Math.max(...readsPerRun.slice(100))).toBeLessThan(60);
    expect(Math.max(...compressionInputs)).toBeLessThan(4000);
    expect(compressionInputs.length).toBeGreaterThan(5);
    // The last run starts from a checkpoint, says which runs it covers, and names it in `run-started`.
    const last = firstRequests.at(-1) as ModelRequest;
    expect(last.messages[0]?.content.startsWith(CHECKPOINT_HEAD)).toBe(true);
    const started = (await store.readJournal(`run-${runs}`))[0]?.data as Started;
    expect(started.historyFrom?.checkpoint?.runId).toMatch(/^run-\d+$/);
    expect(started.historyFrom?.count).toBe(runs - 1);
    const holder = (await store.readJournal(started.historyFrom?.checkpoint?.runId as string)).find(
      (entry) => entry.type === 'checkpoint-committed',
    )?.data as { through: { runId: string }; count: number };
    expect(last.messages[0]?.content).toContain(`runs 1–${holder.count}, through run ${holder.through.runId}]`);
    expect(holder.through.runId).toBe(`run-${holder.count}`);
    // The checkpoint's compression call is charged to the run that made it, like any compression.
    const holderId = started.historyFrom?.checkpoint?.runId as string;
    const charged = (await store.readJournal(holderId))
      .filter((entry) => entry.type === 'model-responded' || entry.type === 'checkpoint-committed')
      .reduce((sum, entry) => sum + (entry.data as { usage: { totalTokens: number } }).usage.totalTokens, 0);
    const checkpointUsage = (await store.readJournal(holderId)).find((entry) => entry.type === 'checkpoint-committed')?.data as {
      usage: { totalTokens: number };
    };
    expect(checkpointUsage.usage.totalTokens).toBeGreaterThan(0);
    expect((await store.getRun(holderId))?.result?.usage.totalTokens).toBe(charged);
    // The run-started record itself stays small.
    expect(JSON.stringify(started).length).toBeLessThan(1500);
    // A run from the middle, started from a checkpoint that newer ones have replaced since, rebuilds
    // exactly the history it sent (what a resume does).
    let middle = 150;
    while ((await store.readJournal(`run-${middle}`)).some((entry) => entry.type === 'checkpoint-committed')) middle += 1;
    const middleStarted = (await store.readJournal(`run-${middle}`))[0]?.data as Started;
    expect(middleStarted.historyFrom?.checkpoint?.runId).not.toBe(started.historyFrom?.checkpoint?.runId);
    const rebuilt = await resolveHistory(store, 'long', `run-${middle}`, middleStarted.historyFrom as HistoryReference);
    expect(rebuilt.messages).toEqual(firstRequests[middle - 1]?.messages.slice(0, -1));
  }, 30_000);

  it('carries a supplement left unconsumed across a checkpoint exactly once, never covering it before it is carried (S-4)', async () => {
    const { store } = countingStore();
    let supplementFor: string | undefined;
    let deliver: (() => Promise<void>) | undefined;
    const seen: ModelRequest[] = [];
    const model = sessionModel(async (request) => {
      seen.push(structuredClone(request));
      if (lastUser(request) === supplementFor) await deliver?.();
    });
    const agent = new Agent({
      name: 'carry',
      mode: 'react',
      model,
      prompt: 'p',
      store,
      context: { historyRuns: 0, windowTokens: 120 },
    });
    const ask = (index: number) => agent.run({ sessionId: 'carry', runId: `run-${index}`, input: `question ${index}` }).result();
    for (let index = 1; index <= 5; index += 1) await ask(index);
    // Run 6 accepts a supplement after its last model call started: it ends unconsumed.
    supplementFor = 'question 6';
    const sixth = agent.run({ sessionId: 'carry', runId: 'run-6', input: 'question 6' });
    deliver = async () => {
      await sixth.supplement('late detail');
    };
    await sixth.result();
    deliver = undefined;
    for (let index = 7; index <= 12; index += 1) await ask(index);

    const checkpointOf = async (runId: string) =>
      (await store.readJournal(runId)).find((entry) => entry.type === 'checkpoint-committed')?.data as
        | { through: { runId: string }; count: number }
        | undefined;
    // Run 7 carries the supplement; its own checkpoint stops before run 6, which only it carries.
    const seventh = seen.find((request) => lastUser(request) === 'question 7') as ModelRequest;
    expect(userTexts(seventh.messages).filter((text) => text === 'late detail')).toHaveLength(1);
    // Run 7 carries the supplement, so it may not checkpoint past run 6 (the only run it could
    // cover): it keeps run 6 in its summary; run 6 itself had covered runs 1–5.
    expect(await checkpointOf('run-7')).toBeUndefined();
    expect((await checkpointOf('run-6'))?.count).toBe(5);
    expect(seventh.messages[1]?.content).toContain('Run 6: succeeded');
    // A later checkpoint covers run 6; no later run carries the supplement again.
    const covering = [];
    for (let index = 8; index <= 12; index += 1) covering.push(await checkpointOf(`run-${index}`));
    expect(covering.some((checkpoint) => (checkpoint?.count ?? 0) >= 6)).toBe(true);
    for (const request of seen.filter((candidate) => /question (8|9|1[0-2])$/.test(lastUser(candidate)))) {
      expect(userTexts(request.messages).filter((text) => text === 'late detail')).toEqual([]);
    }
    const carriedBy = [];
    for (let index = 7; index <= 12; index += 1) {
      const started = (await store.readJournal(`run-${index}`))[0]?.data as Started;
      if (started.carried.length > 0) carriedBy.push(index);
    }
    expect(carriedBy).toEqual([7]);
  }, 30_000);
});
