/**
 * Issue 34: a new run reads its session bounded by the history window and the newest session
 * checkpoint (ADRs 0010, 0012), on the real stores (a SQLite file and PostgreSQL).
 *
 * - What the model sees is what the old unbounded computation gives: every run of a long session
 *   read whole (every journal, no checkpoint range), the newest checkpoint found among the runs
 *   before it in memory, then the same selection (H-3, C-1). Compared for several history windows,
 *   with and without a context window, for the first business request of every run and for the
 *   history every run's `run-started` refers to (what a resumed run rebuilds).
 * - The records a new run reads stay flat: the late runs of a long session read no more than the
 *   early ones, while the same counter sees the unbounded session grow.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { Agent } from '../../src/engine/agent/agent.js';
import type { HistoryReference } from '../../src/engine/agent/agent-journal.js';
import { COMPRESSION_SYSTEM_PROMPT } from '../../src/engine/agent/compression/index.js';
import { readSessionRuns, resolveHistory, selectHistory } from '../../src/engine/agent/session/index.js';
import type { ModelRequest } from '../../src/model/language-model.js';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import type { RunStore } from '../../src/store/run-store.js';
import { SqliteRunStore } from '../../src/store/sqlite/index.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { describeWithPostgres, dropSchema, postgresUrl, uniqueSchemaName } from '../postgres/postgres-availability.js';

const directory = mkdtempSync(join(tmpdir(), 'agentloom-session-bounded-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Opens a fresh store; `close` closes it and removes what it wrote. */
interface StoreKind {
  name: string;
  open(label: string): Promise<{ store: RunStore; close(): Promise<void> }>;
}

const sqlite: StoreKind = {
  name: 'SQLite',
  open: async (label) => {
    const store = new SqliteRunStore({ path: join(directory, `${label}.db`) });
    return { store, close: () => store.close() };
  },
};

const postgres: StoreKind = {
  name: 'PostgreSQL',
  open: async (label) => {
    const store = new PostgresRunStore({ connectionString: postgresUrl, schema: uniqueSchemaName(label), poolSize: 2 });
    await store.setup();
    return {
      store,
      close: async () => {
        await store.close();
        await dropSchema(store.schema);
      },
    };
  },
};

/**
 * The store, answering `readSession` as it does, and counting what each answer holds: one record
 * per run row (with its digest) and one per journal entry, and their JSON length.
 */
function counted(store: RunStore) {
  const reads = { records: 0, bytes: 0 };
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'readSession' || typeof value !== 'function')
        return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<RunStore['readSession']>) => {
        const answer = await target.readSession(...args);
        for (const read of answer) {
          reads.records += 1 + (read.journal?.length ?? 0);
          reads.bytes +=
            JSON.stringify({ run: read.run, digest: read.digest }).length + JSON.stringify(read.journal ?? []).length;
        }
        return answer;
      };
    },
  });
  return { store: wrapped, reads };
}

/** A model that answers `answer to <question>`, and a one-line summary to compression requests; keeps every business request. */
function sessionModel() {
  const business: ModelRequest[][] = [];
  let current: ModelRequest[] = [];
  let checkpoints = 0;
  const model = new ScriptedModel({
    keepRequests: 0,
    respond: (request) => {
      if (request.system === COMPRESSION_SYSTEM_PROMPT) {
        checkpoints += 1;
        return { text: `checkpoint summary ${checkpoints}` };
      }
      current.push(structuredClone(request));
      const question = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
      return { text: `answer to ${question}` };
    },
  });
  return {
    model,
    /** Starts collecting the next run's business requests. */
    next: () => {
      current = [];
      business.push(current);
    },
    business,
    checkpoints: () => checkpoints,
  };
}

/**
 * The old unbounded computation of the history run `index` (1-based) started with: every earlier
 * run read whole, the newest checkpoint among them chosen in memory (the one covering the latest
 * run; of equals, the latest holder), only the runs after the run it covers kept, then the same
 * selection.
 */
async function unboundedHistory(
  store: RunStore,
  sessionId: string,
  runIds: string[],
  index: number,
  keepFull: number,
  window: boolean,
) {
  const every = await readSessionRuns(store, sessionId);
  const before = every.filter((run) => runIds.indexOf(run.runId) < index - 1 && runIds.includes(run.runId));
  if (!window) return selectHistory(before, keepFull).history;
  const position = (runId: string) => runIds.indexOf(runId);
  let holder: (typeof before)[number] | undefined;
  for (const run of before) {
    if (!run.checkpoint) continue;
    if (!holder || position(run.checkpoint.through.runId) >= position(holder.checkpoint?.through.runId as string)) holder = run;
  }
  if (!holder?.checkpoint) return selectHistory(before, keepFull).history;
  const covered = position(holder.checkpoint.through.runId);
  const after = before
    .filter((run) => position(run.runId) > covered)
    .map((run) => (run.runId === holder?.runId ? { ...run, holdsCheckpoint: true as const } : run));
  return selectHistory(after, keepFull).history;
}

/** Runs `runs` questions in one session and compares every run's history with the unbounded computation. */
async function compareHistories(kind: StoreKind, historyRuns: number, windowTokens: number | undefined, runs: number) {
  const label = `history_${historyRuns}_${windowTokens ?? 'none'}`;
  const { store, close } = await kind.open(label);
  try {
    const scripted = sessionModel();
    const agent = new Agent({
      name: 'bounded',
      mode: 'react',
      model: scripted.model,
      prompt: 'p',
      store,
      context: { historyRuns, ...(windowTokens !== undefined ? { windowTokens } : {}) },
    });
    const runIds: string[] = [];
    for (let index = 1; index <= runs; index += 1) {
      const runId = `run-${String(index).padStart(4, '0')}`;
      runIds.push(runId);
      scripted.next();
      const result = await agent.run({ sessionId: 'long', runId, input: `question ${index}` }).result();
      expect(result.status).toBe('succeeded');
    }
    if (windowTokens !== undefined) expect(scripted.checkpoints()).toBeGreaterThan(3);
    let comparedRequests = 0;
    for (let index = 1; index <= runs; index += 1) {
      const runId = runIds[index - 1] as string;
      const expected = await unboundedHistory(store, 'long', runIds, index, historyRuns, windowTokens !== undefined);
      // What a resumed run rebuilds from its `run-started` (the bounded read by the holder it names).
      const started = (await store.readJournal(runId))[0]?.data as { historyFrom: HistoryReference };
      const rebuilt = await resolveHistory(store, 'long', runId, started.historyFrom);
      expect(rebuilt.messages, `${kind.name} ${label}: history of ${runId}`).toEqual(expected);
      // What the model saw, unless the run compressed the history's head into its own checkpoint first.
      const journal = await store.readJournal(runId);
      if (journal.some((entry) => entry.type === 'checkpoint-committed')) continue;
      const first = scripted.business[index - 1]?.[0] as ModelRequest;
      const sent: Message[] = first.messages.slice(0, -1);
      expect(sent, `${kind.name} ${label}: model request of ${runId}`).toEqual(expected);
      comparedRequests += 1;
    }
    expect(comparedRequests).toBeGreaterThan(runs * 0.8);
  } finally {
    await close();
  }
}

/** The records each run's session reads answered, over a session of `runs` runs. */
async function recordsPerRun(kind: StoreKind, windowTokens: number | undefined, runs: number) {
  const { store: real, close } = await kind.open(`flat_${windowTokens ?? 'none'}`);
  try {
    const { store, reads } = counted(real);
    const agent = new Agent({
      name: 'flat',
      mode: 'react',
      model: sessionModel().model,
      prompt: 'p',
      store,
      context: { historyRuns: 2, ...(windowTokens !== undefined ? { windowTokens } : {}) },
    });
    const perRun: Array<{ records: number; bytes: number }> = [];
    for (let index = 1; index <= runs; index += 1) {
      reads.records = 0;
      reads.bytes = 0;
      await agent.run({ sessionId: 'long', runId: `run-${String(index).padStart(4, '0')}`, input: `question ${index}` }).result();
      perRun.push({ ...reads });
    }
    return perRun;
  } finally {
    await close();
  }
}

function sessionSuites(kind: StoreKind) {
  describe(`a new run's session read on ${kind.name} (issue 34)`, () => {
    it('gives the model the same history as the unbounded computation, for several history windows', async () => {
      await compareHistories(kind, 2, undefined, 40);
      for (const historyRuns of [0, 1, 3]) await compareHistories(kind, historyRuns, 1000, 70);
    }, 120_000);

    it('reads no more records late in a long session than early, while the unbounded session grows', async () => {
      const bounded = await recordsPerRun(kind, 1200, 240);
      const early = bounded.slice(10, 80);
      const late = bounded.slice(170);
      // A saw-tooth between checkpoints whose peak does not rise with the session's length.
      expect(Math.max(...late.map((run) => run.records))).toBeLessThanOrEqual(Math.max(...early.map((run) => run.records)));
      expect(Math.max(...late.map((run) => run.bytes))).toBeLessThanOrEqual(Math.max(...early.map((run) => run.bytes)) * 1.1);
      // Run #10 reads its whole session (no checkpoint yet): the late runs never read more than it plus the window's share.
      expect(Math.min(...late.map((run) => run.records))).toBeLessThanOrEqual(bounded[9]?.records as number);
      // The same counter over the same number of runs without a context window: one record per earlier run.
      const unbounded = await recordsPerRun(kind, undefined, 240);
      expect(unbounded[239]?.records).toBeGreaterThan(239);
      expect(unbounded[239]?.records).toBeGreaterThan(4 * Math.max(...late.map((run) => run.records)));
    }, 120_000);
  });
}

sessionSuites(sqlite);
await describeWithPostgres('PostgreSQL session reads', () => sessionSuites(postgres));
