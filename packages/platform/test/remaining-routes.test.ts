import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { createInputWorkflowApp, waitForInput } from './input-workflow-fixture.js';
import { type RunBody, waitForTerminal } from './run-helpers.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

interface SessionBody {
  session: { id: string; title: string | null; externalUserId: string | null; createdBy: string };
}

/**
 * Issue 36, part 4: routes of PLATFORM.md §4.4 the OpenAPI document lacked — an empty session
 * made first and renamed (`POST /apps/{appId}/sessions`, `PATCH /sessions/{sessionId}`, migration
 * 0012), a workflow run's nodes (`GET /runs/{runId}/nodes`) and the runs that need attention
 * (`GET /admin/runs?state=stuck`).
 */
describe.each(dialects)('the remaining §4.4 routes on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let viewer: TestClient;
  let admin: TestClient;
  let space: SpaceFixture;
  /** Added to the platform's clock, to age runs without waiting. */
  let clockOffsetMs = 0;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect, {}, { now: () => new Date(Date.now() + clockOffsetMs) });
    await seedUser(platform, 'owner@example.com');
    await seedUser(platform, 'viewer@example.com');
    await seedUser(platform, 'admin@example.com', { admin: true });
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    viewer = await new TestClient(platform).login('viewer@example.com', 'correct horse battery staple');
    admin = await new TestClient(platform).login('admin@example.com', 'correct horse battery staple');
    space = await buildSpace(owner, 'Routes');
    await ok(owner.request('POST', `/spaces/${space.spaceId}/members`, { email: 'viewer@example.com', role: 'viewer' }), 201);
  });
  afterAll(() => platform.destroy());

  it('lists a run nobody claims as stuck once it waited two lease lengths, and only to instance admins', async () => {
    // No worker runs yet: the run stays pending.
    const started = await ok<{ runId: string }>(owner.request('POST', `/apps/${space.appId}/runs`, { input: 'agentloom?' }), 202);
    const before = await ok<{ runs: { runId: string }[] }>(admin.request('GET', '/admin/runs?state=stuck'), 200);
    expect(before.runs.map((run) => run.runId)).not.toContain(started.runId);
    clockOffsetMs = 3 * platform.services.config.runLeaseMs;
    const after = await ok<{ runs: { runId: string; reason: string; appId: string; status: string }[] }>(
      admin.request('GET', '/admin/runs?state=stuck'),
      200,
    );
    expect(after.runs.find((run) => run.runId === started.runId)).toMatchObject({
      reason: 'never-claimed',
      status: 'pending',
      appId: space.appId,
    });
    expect((await owner.request('GET', '/admin/runs?state=stuck')).status).toBe(403);
    expect((await admin.request('GET', '/admin/runs?state=all')).status).toBe(400);
    clockOffsetMs = 0;
    platform.startWorker();
    const ended: RunBody = await waitForTerminal(owner, started.runId);
    expect(ended.status).toBe('succeeded');
    const cleared = await ok<{ runs: { runId: string }[] }>(admin.request('GET', '/admin/runs'), 200);
    expect(cleared.runs.map((run) => run.runId)).not.toContain(started.runId);
  });

  it('makes an empty session first, renames it, and continues it with a run; viewers see only theirs', async () => {
    const made = await ok<SessionBody>(
      owner.request('POST', `/apps/${space.appId}/sessions`, { title: 'Support chat', externalUserId: 'customer-7' }),
      201,
    );
    expect(made.session).toMatchObject({ title: 'Support chat', externalUserId: 'customer-7' });
    const sessionId = made.session.id;
    const renamed = await ok<SessionBody>(owner.request('PATCH', `/sessions/${sessionId}`, { title: 'Refund question' }), 200);
    expect(renamed.session.title).toBe('Refund question');
    const read = await ok<SessionBody & { runs: unknown[] }>(owner.request('GET', `/sessions/${sessionId}`), 200);
    expect(read).toMatchObject({ session: { id: sessionId, title: 'Refund question' }, runs: [] });
    const listed = await ok<{ sessions: { id: string; title: string | null }[] }>(
      owner.request('GET', `/apps/${space.appId}/sessions`),
      200,
    );
    expect(listed.sessions).toContainEqual(expect.objectContaining({ id: sessionId, title: 'Refund question' }));

    const { run } = await ok<{ run: { sessionId: string; status: string } }>(
      owner.request('POST', `/apps/${space.appId}/runs?wait=30`, { input: 'agentloom?', sessionId, mode: 'blocking' }),
      200,
    );
    expect(run).toMatchObject({ sessionId, status: 'succeeded' });
    expect(
      (await ok<SessionBody>(owner.request('PATCH', `/sessions/${sessionId}`, { title: null }), 200)).session.title,
    ).toBeNull();

    // A viewer's own session is theirs; the owner's is not visible to them (D-P6).
    const mine = await ok<SessionBody>(viewer.request('POST', `/apps/${space.appId}/sessions`, {}), 201);
    expect(mine.session).toMatchObject({ title: null, externalUserId: null });
    expect((await viewer.request('PATCH', `/sessions/${sessionId}`, { title: 'mine now' })).status).toBe(404);
    const refused = await viewer.request('POST', `/apps/${space.appId}/sessions`, { title: '' });
    expect(refused.status).toBe(400);
  });

  it('lists a workflow run’s nodes as it waits and after it finished; an agent run has none', async () => {
    const appId = await createInputWorkflowApp(owner, 'Nodes');
    const { runId } = await ok<{ runId: string }>(
      owner.request('POST', `/apps/${appId}/runs`, { input: { request: 'the memo' } }),
      202,
    );
    await waitForInput(owner, runId);
    const waiting = await ok<{ nodes: { node: string; status: string; tasks: number }[] }>(
      owner.request('GET', `/runs/${runId}/nodes`),
      200,
    );
    expect(waiting.nodes).toEqual([expect.objectContaining({ node: 'ask', status: 'waiting-input', tasks: 1 })]);
    await ok(owner.request('POST', `/runs/${runId}/input`, { answer: 'yes' }), 200);
    expect((await waitForTerminal(owner, runId)).status).toBe('succeeded');
    const finished = await ok<{ nodes: { node: string; status: string }[] }>(owner.request('GET', `/runs/${runId}/nodes`), 200);
    expect(finished.nodes).toEqual([expect.objectContaining({ node: 'ask', status: 'succeeded' })]);

    const agentRun = await ok<{ run: { id: string } }>(
      owner.request('POST', `/apps/${space.appId}/runs?wait=30`, { input: 'agentloom?', mode: 'blocking' }),
      200,
    );
    const refused = await owner.request('GET', `/runs/${agentRun.run.id}/nodes`);
    expect([refused.status, (refused.body as { error: { code: string } }).error.code]).toEqual([422, 'not-a-workflow-run']);
  });

  it('restores the draft a release was published from, as a new revision', async () => {
    const before = await ok<{ draft: { revision: number; config: { prompt: unknown } } }>(
      owner.request('GET', `/apps/${space.appId}/draft`),
      200,
    );
    const published = structuredClone(before.draft.config);
    await ok(owner.request('POST', `/apps/${space.appId}/releases`, { notes: 'to restore' }), 201);
    const releases = await ok<{ releases: { version: number }[] }>(owner.request('GET', `/apps/${space.appId}/releases`), 200);
    const version = Math.max(...releases.releases.map((release) => release.version));
    const changed = { ...before.draft.config, prompt: { text: 'A changed prompt.' } };
    const saved = await ok<{ draft: { revision: number } }>(
      owner.request('PUT', `/apps/${space.appId}/draft`, { config: changed }, { 'if-match': `"${before.draft.revision}"` }),
      200,
    );
    const stale = await owner.request(
      'POST',
      `/apps/${space.appId}/draft/restore`,
      { fromVersion: version },
      { 'if-match': '"1"' },
    );
    expect([stale.status, (stale.body as { error: { code: string } }).error.code]).toEqual([412, 'stale-revision']);
    const restored = await ok<{ draft: { revision: number; config: unknown } }>(
      owner.request('POST', `/apps/${space.appId}/draft/restore`, { fromVersion: version }),
      200,
    );
    expect(restored.draft.revision).toBe(saved.draft.revision + 1);
    expect(restored.draft.config).toEqual(published);
    const missing = await owner.request('POST', `/apps/${space.appId}/draft/restore`, { fromVersion: 999 });
    expect([missing.status, (missing.body as { error: { code: string } }).error.code]).toEqual([404, 'release-not-found']);
    expect((await viewer.request('POST', `/apps/${space.appId}/draft/restore`, { fromVersion: version })).status).toBe(403);
  });
});
