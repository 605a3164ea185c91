/**
 * The owning process SIGKILLed after it sent a message to a remote A2A agent (the official
 * `@a2a-js/sdk` server) and before the answer, then the run taken over by a new process (X-7,
 * R-5, N-13): the remote agent received the message exactly once and the run finishes on the
 * taker — for an executor role and a workflow node, killed before and after the task id was
 * journaled, on SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunClient } from '../../src/index.js';
import { PostgresRunStore } from '../../src/store/postgres/index.js';
import type { JournalEntry, RunStore } from '../../src/store/run-store.js';
import { openStore } from '../crash/open-store.js';
import { runScript } from '../helpers/child-process.js';
import {
  describeWithPostgres,
  dropSchema,
  postgresUrl,
  postgresUrlWithSchema,
  uniqueSchemaName,
} from '../postgres/postgres-availability.js';
import { type A2ATestServer, startA2ATestServer } from './a2a-test-server.js';

const child = join(import.meta.dirname, 'a2a-crash-child.ts');
const directory = mkdtempSync(join(tmpdir(), 'agentloom-a2a-crash-'));
let server: A2ATestServer;
beforeAll(async () => {
  server = await startA2ATestServer();
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

type Kind = 'executor' | 'workflow';
type Freeze = 'after-send' | 'after-task';

/** The keys of the call notes a journal holds, in order (`operation-noted` / `task-noted`). */
function noteKeys(journal: JournalEntry[]): string[] {
  return journal
    .filter((entry) => entry.type === 'operation-noted' || entry.type === 'task-noted')
    .map((entry) => (entry.data as { key: string }).key);
}

async function journalOf(storeUrl: string, runId: string): Promise<JournalEntry[]> {
  const store: RunStore = await openStore(storeUrl);
  try {
    return await store.readJournal(runId);
  } finally {
    await store.close();
  }
}

async function crashAndTakeOver(storeUrl: string, kind: Kind, freeze: Freeze, label: string) {
  const runId = `a2a-${kind}-${freeze}-${label}`;
  const task = `wait:2500 ${runId}`;
  const env = {
    A2A_CRASH_STORE: storeUrl,
    A2A_CRASH_RUN_ID: runId,
    A2A_CRASH_CARD_URL: server.cardUrl,
    A2A_CRASH_KIND: kind,
    A2A_CRASH_TASK: task,
  };
  const crashed = await runScript(child, { ...env, A2A_CRASH_FREEZE: freeze });
  expect(crashed.killed, crashed.stderr).toBe(true);
  expect(server.texts.filter((text) => text === task)).toHaveLength(1);
  const before = noteKeys(await journalOf(storeUrl, runId));
  // The message id was journaled before the send; the task id only when the answer arrived.
  expect(before).toEqual(freeze === 'after-send' ? ['a2a.send'] : ['a2a.send', 'a2a.task']);
  const taker = await runScript(child, env);
  expect(taker.killed).toBe(false);
  const result = taker.values.RESULT as { status: string; output: unknown } | undefined;
  expect(result, taker.stderr).toMatchObject({ status: 'succeeded' });
  const answer = `done: ${runId}`;
  if (kind === 'executor') expect(result?.output).toBe(`report: ${answer}`);
  else expect(result?.output).toMatchObject({ answer });
  // Exactly once: one message, with the id journaled before the send.
  expect(server.texts.filter((text) => text === task)).toHaveLength(1);
  const after = await journalOf(storeUrl, runId);
  expect(noteKeys(after)).toEqual(['a2a.send', 'a2a.task']);
  const sent = after.find((entry) => (entry.data as { key?: string }).key === 'a2a.send')?.data as {
    value: { messageId: string };
  };
  expect(server.received.get(sent.value.messageId)).toBe(1);
  if (kind === 'executor') {
    // The attempt the dead owner opened was continued, not recorded unknown nor started again.
    expect(after.filter((entry) => entry.type === 'attempt-started')).toHaveLength(1);
    expect(
      after.filter((entry) => entry.type === 'operation-finished').map((entry) => (entry.data as { status: string }).status),
    ).toEqual(['succeeded']);
  }
}

describe('an A2A delegation cut by SIGKILL, taken over on SQLite (X-7, N-13)', () => {
  const cases: [Kind, Freeze][] = [
    ['executor', 'after-task'],
    ['executor', 'after-send'],
    ['workflow', 'after-task'],
    ['workflow', 'after-send'],
  ];
  for (const [kind, freeze] of cases) {
    it(`${kind}: killed ${freeze === 'after-send' ? 'after the send, before the task id was saved' : 'after the task id was saved, before the answer'}`, async () => {
      await crashAndTakeOver(`sqlite:${join(directory, `${kind}-${freeze}.db`)}`, kind, freeze, 'sqlite');
    }, 60_000);
  }
});

describe('a remote question waiting for approval when the owner is SIGKILLed (K-5, X-7)', () => {
  it('is answered once on the taker: no second approval request, no second send', async () => {
    const storeUrl = `sqlite:${join(directory, 'approval.db')}`;
    const runId = 'a2a-approval';
    const env = {
      A2A_CRASH_STORE: storeUrl,
      A2A_CRASH_RUN_ID: runId,
      A2A_CRASH_CARD_URL: server.cardUrl,
      A2A_CRASH_KIND: 'executor',
      A2A_CRASH_TASK: 'ask size',
    };
    const crashed = await runScript(child, { ...env, A2A_CRASH_FREEZE: 'at-approval' });
    expect(crashed.killed, crashed.stderr).toBe(true);
    const requested = (await journalOf(storeUrl, runId)).filter((entry) => entry.type === 'approval-requested');
    expect(requested).toHaveLength(1);
    const approvalId = (requested[0]?.data as { approvalId?: string } | undefined)?.approvalId ?? '';
    const taker = runScript(child, env);
    // Decided from this process while the taker waits (after the dead owner's 1 s lease).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const store = await openStore(storeUrl);
    try {
      await new RunClient({ store }).decideApproval(runId, { approvalId, approved: true, reason: 'large' });
    } finally {
      await store.close();
    }
    const finished = await taker;
    expect(finished.values.RESULT, finished.stderr).toMatchObject({ status: 'succeeded', output: 'report: answered: large' });
    const after = await journalOf(storeUrl, runId);
    expect(after.filter((entry) => entry.type === 'approval-requested')).toHaveLength(1);
    expect(server.texts.filter((text) => text === 'ask size')).toHaveLength(1);
    expect(server.texts.filter((text) => text === 'large')).toHaveLength(1);
  }, 60_000);
});

await describeWithPostgres('an A2A delegation cut by SIGKILL, taken over on PostgreSQL (X-7, N-13)', () => {
  const schema = uniqueSchemaName('a2a_crash');
  beforeAll(async () => {
    const store = new PostgresRunStore({ connectionString: postgresUrl, schema, poolSize: 1 });
    await store.setup();
    await store.close();
  });
  afterAll(async () => {
    await dropSchema(schema);
  });
  it('executor: killed after the send, before the task id was saved', async () => {
    await crashAndTakeOver(postgresUrlWithSchema(schema), 'executor', 'after-send', 'pg');
  }, 60_000);
  it('workflow: killed after the task id was saved, before the answer', async () => {
    await crashAndTakeOver(postgresUrlWithSchema(schema), 'workflow', 'after-task', 'pg');
  }, 60_000);
});
