import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { parseSse, type RunBody, waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer, saveDraftAndPublish } from './scripted-servers.js';

interface Accepted {
  runId: string;
  sessionId: string;
  status: string;
}

describe.each(dialects)('runs over HTTP on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let fixture: Awaited<ReturnType<typeof buildScriptedApp>>;
  let question = 0;
  const workers: RunWorker[] = [];
  const ensureWorker = () => {
    if (workers.length === 0) workers.push(platform.startWorker());
  };
  /** A question no other test asks, so the tool server's count is per run. */
  const ask = (kind: 'lookup' | 'plain') => {
    question += 1;
    return `${kind === 'lookup' ? 'please lookup' : 'say hi'} #${question} ${dialect}`;
  };
  const start = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    owner.request('POST', `/apps/${fixture.appId}/runs`, body, headers);

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    fixture = await buildScriptedApp(owner, model.url, tool.url);
  });
  afterAll(async () => {
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  it('stops a queued run with no worker and no client: it ends stopped at once, and a worker later finds it ended', async () => {
    const queued = await start({ input: ask('lookup') });
    expect(queued.status).toBe(202);
    const { runId, status } = queued.body as Accepted;
    expect(status).toBe('queued');
    const stop = await owner.request('POST', `/runs/${runId}/stop`);
    expect(stop.status).toBe(202);
    const run = await waitForTerminal(owner, runId);
    expect(run).toMatchObject({ status: 'stopped', reason: 'user-stop', stopCause: 'user' });
    // Stopping again is idempotent.
    expect((await owner.request('POST', `/runs/${runId}/stop`)).status).toBe(202);
  });

  it('takes a supplement for a queued run (no worker yet) and the run consumes it once a worker starts it', async () => {
    const queued = (await start({ input: ask('plain') })).body as Accepted;
    const supplement = await owner.request('POST', `/runs/${queued.runId}/supplements`, { text: 'and be brief' });
    expect(supplement.status).toBe(202);
    const { supplementId } = supplement.body as { supplementId: string };
    ensureWorker();
    expect((await waitForTerminal(owner, queued.runId)).status).toBe('succeeded');
    const { view } = (await owner.request('GET', `/runs/${queued.runId}/view`)).body as {
      view: { agent: { supplements: { supplementId: string; status: string }[] } };
    };
    expect(view.agent.supplements).toEqual([expect.objectContaining({ supplementId, status: 'consumed' })]);
  });

  it('runs async: 202 with the run id, a worker executes it on the release it pinned, once', async () => {
    ensureWorker();
    const input = ask('lookup');
    const response = await start({ input });
    expect(response.status).toBe(202);
    const accepted = response.body as Accepted & { links: { events: string } };
    expect(accepted.links.events).toBe(`/api/v1/runs/${accepted.runId}/events`);
    const run = await waitForTerminal(owner, accepted.runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatch(/^answer: /);
    expect(run.releaseId).not.toBeNull();
    expect(tool.calls.get(input)).toBe(1);
  });

  it('streams SSE whose ids are journal sequences, closes after run-finish, and replays from Last-Event-ID with no gap and no duplicate', async () => {
    ensureWorker();
    const streamed = await start({ input: ask('lookup'), mode: 'stream' });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const { events } = parseSse(streamed.body as string);
    expect(events.at(-1)?.event).toBe('run-finish');
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((left, right) => left - right));
    expect(new Set(ids).size).toBe(ids.length);
    const runId = (events[0]?.data as { runId: string } | undefined)?.runId;
    const middle = ids[Math.floor(ids.length / 2)] as number;
    const replay = await owner.request('GET', `/runs/${runId}/events`, undefined, { 'last-event-id': String(middle) });
    expect(parseSse(replay.body as string).events.map((event) => Number(event.id))).toEqual(ids.filter((id) => id > middle));
    const after = await owner.request('GET', `/runs/${runId}/events?after=0`);
    expect(parseSse(after.body as string).events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    // A reconnect after the last event of the ended run: an empty stream that ends at once
    // (it used to stay open, with pings, until the client left).
    const past = await owner.request('GET', `/runs/${runId}/events`, undefined, { 'last-event-id': String(ids.at(-1)) });
    expect(past.status).toBe(200);
    expect(parseSse(past.body as string).events).toEqual([]);
    // A run the SDK store no longer holds is a 404 before any stream opens (one read of the run
    // checks it and starts the tail: RunClient.openFollow).
    await platform.services.runClient.deleteRun(runId as string);
    const gone = await owner.request('GET', `/runs/${runId}/events`);
    expect(gone.headers.get('content-type')).toContain('application/json');
    expect([gone.status, (gone.body as { error: { code: string } }).error.code]).toEqual([404, 'not-found']);
  });

  it('answers 50 concurrent POSTs with one Idempotency-Key with exactly one run; another body with that key is a 422', async () => {
    ensureWorker();
    const body = { input: ask('plain') };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => start(body, { 'idempotency-key': `key-${dialect}-50` })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(202));
    const runIds = new Set(responses.map((response) => (response.body as Accepted).runId));
    expect(runIds.size).toBe(1);
    const rows = await platform.services.database
      .selectFrom('runs')
      .select('id')
      .where('id', 'in', [...runIds])
      .execute();
    expect(rows).toHaveLength(1);
    const sdkRuns = await platform.services.runClient.listRuns({ metadata: { appId: fixture.appId }, limit: 200 });
    expect(sdkRuns.items.filter((item) => item.runId === [...runIds][0])).toHaveLength(1);
    const reused = await start({ input: 'another question' }, { 'idempotency-key': `key-${dialect}-50` });
    expect(reused.status).toBe(422);
    expect((reused.body as { error: { code: string } }).error.code).toBe('idempotency-key-reused');
    await waitForTerminal(owner, [...runIds][0] as string);
  });

  it('refuses a second run in a session with an active run (409 run-active, its id); stops a running run without any client; keeps the saved tool result', async () => {
    ensureWorker();
    model.answerDelayMs = 60_000;
    const input = ask('lookup');
    const first = (await start({ input })).body as Accepted;
    await waitUntil(() => model.answering.has(input));
    const second = await start({ input: ask('plain'), sessionId: first.sessionId });
    expect(second.status).toBe(409);
    expect((second.body as { error: { code: string; details: { runId: string } } }).error).toMatchObject({
      code: 'run-active',
      details: { runId: first.runId },
    });
    const running = (await owner.request('GET', `/runs/${first.runId}`)).body as { run: RunBody };
    expect(running.run.status).toBe('running');
    expect(running.run.owner?.live).toBe(true);
    expect((await owner.request('POST', `/runs/${first.runId}/stop`)).status).toBe(202);
    model.answerDelayMs = 0;
    const stopped = await waitForTerminal(owner, first.runId);
    expect(stopped).toMatchObject({ status: 'stopped', stopCause: 'user' });
    expect(tool.calls.get(input)).toBe(1);
    // The session is free again, and its history keeps both runs' inputs.
    const next = await start({ input: ask('plain'), sessionId: first.sessionId });
    expect(next.status).toBe(202);
    await waitForTerminal(owner, (next.body as Accepted).runId);
    const session = (await owner.request('GET', `/sessions/${first.sessionId}`)).body as { runs: { input: string }[] };
    expect(session.runs.map((run) => run.input)).toContain(input);
    expect(session.runs).toHaveLength(2);
  });

  it('publishing during a run stops it (cause release-published); the session stays and the next question runs on the new release', async () => {
    ensureWorker();
    model.answerDelayMs = 60_000;
    const input = ask('lookup');
    const first = (await start({ input })).body as Accepted;
    await waitUntil(() => model.answering.has(input));
    const before = ((await owner.request('GET', `/runs/${first.runId}`)).body as { run: RunBody }).run;
    const published = await saveDraftAndPublish(owner, fixture.appId, fixture.connectionId, fixture.toolId, 'Version two.');
    expect(published.stoppedRuns).toContain(first.runId);
    model.answerDelayMs = 0;
    const stopped = await waitForTerminal(owner, first.runId);
    expect(stopped).toMatchObject({ status: 'stopped', stopCause: 'release-published', releaseId: before.releaseId });
    const next = (await start({ input: ask('plain'), sessionId: first.sessionId })).body as Accepted;
    const after = await waitForTerminal(owner, next.runId);
    expect(after.status).toBe('succeeded');
    expect(after.releaseId).toBe(published.release.id);
    expect(after.releaseId).not.toBe(before.releaseId);
  });

  it('answers bad input with typed 4xx and writes nothing', async () => {
    ensureWorker();
    const count = async () =>
      Number(
        (
          await platform.services.database
            .selectFrom('runs')
            .select((select) => select.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const runsBefore = await count();
    const cases: [Record<string, unknown>, Record<string, string>, number, string][] = [
      [{}, {}, 400, 'invalid-request'],
      [{ input: '' }, {}, 400, 'invalid-request'],
      [{ input: 'x', mode: 'later' }, {}, 400, 'invalid-request'],
      [{ input: 'x', extra: 1 }, {}, 400, 'invalid-request'],
      [{ input: 'x', sessionId: 'ses_missing' }, {}, 404, 'not-found'],
      [{ input: 'x' }, { 'idempotency-key': 'bad key with spaces' }, 400, 'invalid-request'],
    ];
    for (const [body, headers, status, code] of cases) {
      const response = await start(body, headers);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((response.body as { error: { code: string } }).error.code).toBe(code);
    }
    expect(await count()).toBe(runsBefore);
    expect(((await owner.request('GET', '/runs/run_missing')).body as { error: { code: string } }).error.code).toBe('not-found');
    const ended = (await start({ input: ask('plain'), mode: 'blocking' })).body as { run: RunBody };
    expect(ended.run.status).toBe('succeeded');
    const late = await owner.request('POST', `/runs/${ended.run.id}/supplements`, { text: 'one more thing' });
    expect(late.status).toBe(409);
    expect((late.body as { error: { code: string } }).error.code).toBe('run-not-active');
    const badReplay = await owner.request('GET', `/runs/${ended.run.id}/events`, undefined, { 'last-event-id': 'abc' });
    expect(badReplay.status).toBe(400);
    expect((badReplay.body as { error: { code: string } }).error.code).toBe('invalid-last-event-id');
    const approval = await owner.request('POST', `/runs/${ended.run.id}/approvals/approval_missing`, { approved: true });
    expect([404, 409]).toContain(approval.status);
  });

  it('finishes 200 concurrent runs on 2 workers with nothing lost', { timeout: 300_000 }, async () => {
    while (workers.length < 2) workers.push(platform.startWorker());
    const began = Date.now();
    const accepted = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const response = await start({ input: `load ${index} ${dialect}` });
        expect(response.status).toBe(202);
        return (response.body as Accepted).runId;
      }),
    );
    expect(new Set(accepted).size).toBe(200);
    const results = [];
    for (const runId of accepted) results.push(await waitForTerminal(owner, runId));
    expect(results.filter((run) => run.status === 'succeeded')).toHaveLength(200);
    console.log(`[runs] 200 runs through the API on 2 workers (${dialect}): ${((Date.now() - began) / 1000).toFixed(1)} s`);
    // Each run ended once on a worker, and both workers executed some of them (the workers' own
    // log lines, whichever dispatcher carried the jobs).
    const ended = platform.logLines
      .map((line) => JSON.parse(line) as { msg?: string; runId?: string; workerId?: string })
      .filter((line) => line.msg === 'run ended' && line.runId !== undefined && accepted.includes(line.runId));
    expect(new Set(ended.map((line) => line.runId)).size).toBe(200);
    expect(new Set(ended.map((line) => line.workerId)).size).toBe(2);
  });
});
