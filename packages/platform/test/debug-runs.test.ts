import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

/**
 * Debug runs of the console editor (PLATFORM.md §4.4 `release: 'draft'`): a run of the saved
 * draft of an app that need not be published, on an immutable snapshot of the draft (a `debug`
 * release that takes no release number), in a debug session the app's session list never shows
 * and ordinary runs never continue. Only editors may start one; a draft that does not validate
 * is refused with 422 and nothing is written.
 */
describe.each(dialects)('debug runs of the draft on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let viewer: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let worker: RunWorker;
  let fixture: Awaited<ReturnType<typeof buildScriptedApp>>;
  let appId = '';

  const saveDraft = async (config: Record<string, unknown>) => {
    const { draft } = (await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    const saved = await owner.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };
  const draftConfig = (prompt: string) => ({
    model: { connectionId: fixture.connectionId, modelId: 'scripted' },
    prompt: { text: prompt },
    capabilities: { builtIn: [], tools: [fixture.toolId], skills: [] },
  });
  const countRows = async () => ({
    runs: (await platform.services.database.selectFrom('runs').select('id').where('app_id', '=', appId).execute()).length,
    releases: (await platform.services.database.selectFrom('app_releases').select('id').where('app_id', '=', appId).execute())
      .length,
  });

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    await seedUser(platform, 'viewer@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    viewer = await new TestClient(platform).login('viewer@example.com', 'correct horse battery staple');
    fixture = await buildScriptedApp(owner, model.url, tool.url, 'Debug');
    const added = await owner.request('POST', `/spaces/${fixture.spaceId}/members`, {
      email: 'viewer@example.com',
      role: 'viewer',
    });
    expect(added.status).toBe(201);
    const created = await owner.request('POST', `/spaces/${fixture.spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Draft only',
    });
    appId = (created.body as { app: { id: string } }).app.id;
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop?.();
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  it('refuses a draft that does not validate with 422 and writes nothing', async () => {
    const before = await countRows();
    const refused = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', release: 'draft' });
    expect(refused.status).toBe(422);
    const error = (refused.body as { error: { code: string; details: { issues: { path: string }[] } } }).error;
    expect(error.code).toBe('draft-invalid');
    expect(error.details.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['model', 'prompt']));
    expect(await countRows()).toEqual(before);
  });

  it('runs the saved draft of an unpublished app on a snapshot, in a debug session that is never listed', async () => {
    await saveDraft(draftConfig('Draft prompt one.'));
    const ordinary = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi' });
    expect([ordinary.status, (ordinary.body as { error: { code: string } }).error.code]).toEqual([409, 'app-not-published']);

    const started = await owner.request('POST', `/apps/${appId}/runs`, {
      input: `please lookup debug ${dialect}`,
      release: 'draft',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const { runId, sessionId } = started.body as { runId: string; sessionId: string };
    // Editing the draft now changes nothing for the run: it runs the snapshot taken at its start.
    await saveDraft({ ...draftConfig('Draft prompt two.'), capabilities: { builtIn: [], tools: [], skills: [] } });
    const run = await waitForTerminal(owner, runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toContain(`found ${`please lookup debug ${dialect}`.length}`);
    expect(run.releaseId).toMatch(/^dbg_/);

    const release = await platform.services.database
      .selectFrom('app_releases')
      .selectAll()
      .where('id', '=', run.releaseId ?? '')
      .executeTakeFirstOrThrow();
    expect(release.kind).toBe('debug');
    expect(release.version).toBeLessThan(0);
    expect(JSON.parse(release.config_snapshot).entry.prompt).toEqual({ text: 'Draft prompt one.' });

    const app = (await owner.request('GET', `/apps/${appId}`)).body as { app: { latestReleaseId?: string | null } };
    expect(app.app.latestReleaseId ?? null).toBeNull();
    expect(((await owner.request('GET', `/apps/${appId}/releases`)).body as { releases: unknown[] }).releases).toEqual([]);
    expect(((await owner.request('GET', `/apps/${appId}/sessions`)).body as { sessions: unknown[] }).sessions).toEqual([]);

    // The debug session continues with debug runs only.
    const next = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', sessionId, release: 'draft' });
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    const second = await waitForTerminal(owner, (next.body as { runId: string }).runId);
    expect(second.status).toBe('succeeded');
    expect(second.releaseId).not.toBe(run.releaseId);
  });

  it('keeps ordinary and debug sessions apart, and publishing still numbers releases from 1', async () => {
    await saveDraft(draftConfig('Published prompt.'));
    const published = await owner.request('POST', `/apps/${appId}/releases`, { notes: 'first' });
    expect(published.status).toBe(201);
    expect((published.body as { release: { version: number } }).release.version).toBe(1);

    const debug = (await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', release: 'draft' })).body as {
      runId: string;
      sessionId: string;
    };
    await waitForTerminal(owner, debug.runId);
    const mixed = await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi', sessionId: debug.sessionId });
    expect([mixed.status, (mixed.body as { error: { code: string } }).error.code]).toEqual([409, 'session-kind-mismatch']);
    const message = await owner.request('POST', `/sessions/${debug.sessionId}/messages`, { text: 'say hi' });
    expect([message.status, (message.body as { error: { code: string } }).error.code]).toEqual([409, 'session-kind-mismatch']);

    const ordinary = (await owner.request('POST', `/apps/${appId}/runs`, { input: 'say hi' })).body as {
      runId: string;
      sessionId: string;
    };
    const run = await waitForTerminal(owner, ordinary.runId);
    expect(run.status).toBe('succeeded');
    const intoOrdinary = await owner.request('POST', `/apps/${appId}/runs`, {
      input: 'say hi',
      sessionId: ordinary.sessionId,
      release: 'draft',
    });
    expect([intoOrdinary.status, (intoOrdinary.body as { error: { code: string } }).error.code]).toEqual([
      409,
      'session-kind-mismatch',
    ]);
    const sessions = ((await owner.request('GET', `/apps/${appId}/sessions`)).body as { sessions: { id: string }[] }).sessions;
    expect(sessions.map((session) => session.id)).toEqual([ordinary.sessionId]);
  });

  it('refuses a viewer with 403 (a viewer may still run the published release)', async () => {
    const before = await countRows();
    const refused = await viewer.request('POST', `/apps/${appId}/runs`, { input: 'say hi', release: 'draft' });
    expect([refused.status, (refused.body as { error: { code: string } }).error.code]).toEqual([403, 'forbidden']);
    expect(await countRows()).toEqual(before);
    const allowed = await viewer.request('POST', `/apps/${appId}/runs`, { input: 'say hi' });
    expect(allowed.status).toBe(202);
    await waitForTerminal(viewer, (allowed.body as { runId: string }).runId);
  });

  it('leaves debug runs out of the run log unless asked for, marked when listed, across pages', async () => {
    type Log = { runs: { id: string; debug: boolean }[]; nextCursor?: string };
    const log = async (query: string) => {
      const answer = await owner.request('GET', `/apps/${appId}/runs${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as Log;
    };
    const rows = await platform.services.database
      .selectFrom('runs')
      .innerJoin('sessions', 'sessions.id', 'runs.session_id')
      .select(['runs.id as id', 'sessions.kind as kind'])
      .where('runs.app_id', '=', appId)
      .execute();
    const debugIds = rows.filter((row) => row.kind === 'debug').map((row) => row.id);
    const ordinaryIds = rows.filter((row) => row.kind !== 'debug').map((row) => row.id);
    expect(debugIds.length).toBeGreaterThanOrEqual(3);
    expect(ordinaryIds.length).toBeGreaterThanOrEqual(2);

    const byDefault = await log('');
    expect(byDefault.runs.map((run) => run.id).sort()).toEqual([...ordinaryIds].sort());
    expect(byDefault.runs.every((run) => !run.debug)).toBe(true);
    const included = await log('?debug=include');
    expect(included.runs.map((run) => run.id).sort()).toEqual([...rows.map((row) => row.id)].sort());
    expect(
      included.runs
        .filter((run) => run.debug)
        .map((run) => run.id)
        .sort(),
    ).toEqual([...debugIds].sort());
    const only = await log('?debug=only');
    expect(only.runs.map((run) => run.id).sort()).toEqual([...debugIds].sort());

    // One run a page: the pages skip debug runs between ordinary ones and join up without a gap.
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await log(`?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      paged.push(...page.runs.map((run) => run.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(byDefault.runs.map((run) => run.id));

    const bad = await owner.request('GET', `/apps/${appId}/runs?debug=yes`);
    expect([bad.status, (bad.body as { error: { code: string } }).error.code]).toEqual([400, 'invalid-request']);
  });
});
