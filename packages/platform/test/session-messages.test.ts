import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

interface MessageAnswer {
  kind: 'supplement' | 'run';
  runId: string;
  sessionId: string;
  supplementId?: string;
  status?: string;
  links?: { self: string };
}

interface HistoryBody {
  runs: {
    runId: string;
    status: string;
    unfinished: boolean;
    input: string | null;
    supplements: { supplementId: string; text: string; status: string }[];
    outcome: { status: string } | null;
    messages: unknown[];
  }[];
}

describe.each(dialects)('the chat box and session history on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let appId: string;
  let worker: RunWorker | undefined;
  const message = (sessionId: string, text: unknown, headers: Record<string, string> = {}) =>
    owner.request('POST', `/sessions/${sessionId}/messages`, { text }, headers);
  /** A session whose only run is queued (no worker runs yet). */
  const queuedSession = async (input: string) => {
    const response = await owner.request('POST', `/apps/${appId}/runs`, { input });
    expect(response.status).toBe(202);
    return response.body as { runId: string; sessionId: string };
  };

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    ({ appId } = await buildScriptedApp(owner, model.url, tool.url));
  });
  afterAll(async () => {
    await worker?.stop();
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  it('makes the text a new question when the run ends between the check and the supplement: never lost, never both', async () => {
    const { runId, sessionId } = await queuedSession('say hi, race');
    const { runClient } = platform.services;
    const supplement = runClient.supplement.bind(runClient);
    // The interleaving under test: the run ends (a real stop in the SDK store) after the
    // platform saw it active and before its supplement reaches the store.
    runClient.supplement = async (target: string, text: string) => {
      await runClient.requestStop(target, { requestedBy: 'test' });
      return supplement(target, text);
    };
    let answer: MessageAnswer;
    try {
      const response = await message(sessionId, 'say hi, late text');
      expect(response.status, JSON.stringify(response.body)).toBe(202);
      answer = response.body as MessageAnswer;
    } finally {
      runClient.supplement = supplement;
    }
    expect(answer).toMatchObject({ kind: 'run', sessionId, status: 'queued' });
    expect(answer.runId).not.toBe(runId);
    const history = (await owner.request('GET', `/sessions/${sessionId}/history`)).body as HistoryBody;
    expect(history.runs.map((run) => [run.runId, run.input, run.status, run.supplements.length])).toEqual([
      [runId, 'say hi, race', 'stopped', 0],
      [answer.runId, 'say hi, late text', 'queued', 0],
    ]);
    expect(history.runs.map((run) => run.unfinished)).toEqual([false, true]);
  });

  it('supplements the active run, starts a new run once it ended, replays an Idempotency-Key, and keeps the raw record', async () => {
    const { runId, sessionId } = await queuedSession('say hi, first');
    // Ten concurrent identical messages with one key: one supplement, the same answer ten times.
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => message(sessionId, 'and be brief', { 'idempotency-key': `sup-${dialect}` })),
    );
    expect(concurrent.map((response) => response.status)).toEqual(Array(10).fill(202));
    const supplemented = concurrent[0]?.body as MessageAnswer;
    expect(supplemented).toMatchObject({ kind: 'supplement', runId, sessionId });
    expect(new Set(concurrent.map((response) => JSON.stringify(response.body))).size).toBe(1);
    const reused = await message(sessionId, 'something else', { 'idempotency-key': `sup-${dialect}` });
    expect(reused.status).toBe(422);
    expect((reused.body as { error: { code: string } }).error.code).toBe('idempotency-key-reused');
    const queued = (await owner.request('GET', `/sessions/${sessionId}/history`)).body as HistoryBody;
    expect(queued.runs[0]?.supplements).toEqual([
      { supplementId: supplemented.supplementId, text: 'and be brief', status: 'pending' },
    ]);

    worker = platform.startWorker();
    expect((await waitForTerminal(owner, runId)).status).toBe('succeeded');
    const next = await message(sessionId, 'say hi, second', { 'idempotency-key': `run-${dialect}` });
    expect(next.status).toBe(202);
    const started = next.body as MessageAnswer;
    expect(started).toMatchObject({ kind: 'run', sessionId, status: 'queued', links: { self: `/api/v1/runs/${started.runId}` } });
    expect((await waitForTerminal(owner, started.runId)).status).toBe('succeeded');
    const replayed = (await message(sessionId, 'say hi, second', { 'idempotency-key': `run-${dialect}` })).body;
    expect(replayed).toMatchObject({ kind: 'run', runId: started.runId, status: 'succeeded' });

    const history = (await owner.request('GET', `/sessions/${sessionId}/history`)).body as HistoryBody;
    expect(history.runs.map((run) => [run.runId, run.input, run.status, run.unfinished])).toEqual([
      [runId, 'say hi, first', 'succeeded', false],
      [started.runId, 'say hi, second', 'succeeded', false],
    ]);
    expect(history.runs[0]?.supplements).toEqual([
      { supplementId: supplemented.supplementId, text: 'and be brief', status: 'consumed' },
    ]);
    expect(history.runs[1]?.messages.length).toBeGreaterThanOrEqual(2);
    const runsInSession = await platform.services.database
      .selectFrom('runs')
      .select('id')
      .where('session_id', '=', sessionId)
      .execute();
    expect(runsInSession).toHaveLength(2);
  });

  it('answers typed errors and writes nothing: 400 for bad bodies, 404 for unknown sessions, 401 without credentials', async () => {
    const { runId, sessionId } = await queuedSession('say hi, errors');
    await waitForTerminal(owner, runId);
    const before = await platform.services.database.selectFrom('runs').select('id').execute();
    const cases: [string, unknown, Record<string, string>, number, string][] = [
      [sessionId, '', {}, 400, 'invalid-request'],
      [sessionId, '   ', {}, 400, 'invalid-request'],
      [sessionId, 42, {}, 400, 'invalid-request'],
      [sessionId, 'ok', { 'idempotency-key': 'bad key' }, 400, 'invalid-request'],
      ['ses_missing', 'hello', {}, 404, 'not-found'],
    ];
    for (const [session, text, headers, status, code] of cases) {
      const response = await message(session, text, headers);
      expect(response.status, JSON.stringify(text)).toBe(status);
      expect((response.body as { error: { code: string } }).error.code).toBe(code);
    }
    const extra = await owner.request('POST', `/sessions/${sessionId}/messages`, { text: 'x', runId });
    expect(extra.status).toBe(400);
    expect((await owner.request('GET', '/sessions/ses_missing/history')).status).toBe(404);
    const anonymous = new TestClient(platform);
    expect((await anonymous.request('POST', `/sessions/${sessionId}/messages`, { text: 'hi' })).status).toBe(401);
    expect((await anonymous.request('GET', `/sessions/${sessionId}/history`)).status).toBe(401);
    expect(await platform.services.database.selectFrom('runs').select('id').execute()).toHaveLength(before.length);
  });
});
