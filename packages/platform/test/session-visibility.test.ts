import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

const password = 'correct horse battery staple';

/**
 * D-P6: a session is visible to the member or app key that started it; editors and above (and
 * space keys, which act as editors) see every session of the app. Another viewer gets the same 404
 * as for a session that does not exist — for the session, its history, its chat box, its runs
 * and their events, and for continuing it with a new run — and does not find it in the list.
 */
describe.each(dialects)('who sees a session, on %s', (dialect) => {
  let platform: TestPlatform;
  let space: SpaceFixture;
  const clients = new Map<string, TestClient>();
  let mine: { runId: string; sessionId: string };

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    for (const name of ['owner', 'editor', 'first-viewer', 'second-viewer']) {
      await seedUser(platform, `${name}@example.com`);
      clients.set(name, await new TestClient(platform).login(`${name}@example.com`, password));
    }
    const owner = clients.get('owner') as TestClient;
    space = await buildSpace(owner, 'Sessions');
    for (const [name, role] of [
      ['editor', 'editor'],
      ['first-viewer', 'viewer'],
      ['second-viewer', 'viewer'],
    ] as const) {
      const added = await owner.request('POST', `/spaces/${space.spaceId}/members`, { email: `${name}@example.com`, role });
      expect(added.status).toBe(201);
    }
    clients.set('space-key', TestClient.withApiKey(platform, space.spaceKeySecret));
    clients.set('app-key', TestClient.withApiKey(platform, space.appKeySecret));
    const anotherKey = await owner.request('POST', `/apps/${space.appId}/api-keys`, { name: 'another integration' });
    clients.set('another-app-key', TestClient.withApiKey(platform, (anotherKey.body as { secret: string }).secret));
    platform.startWorker();
    const started = await (clients.get('first-viewer') as TestClient).request('POST', `/apps/${space.appId}/runs?wait=30`, {
      input: 'hello, this is private',
      mode: 'blocking',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { run } = started.body as { run: { id: string; sessionId: string } };
    mine = { runId: run.id, sessionId: run.sessionId };
  });
  afterAll(() => platform.destroy());

  /** The routes that read or continue one session, with their bodies. */
  const sessionRoutes = () =>
    [
      ['GET', `/sessions/${mine.sessionId}`],
      ['GET', `/sessions/${mine.sessionId}/history`],
      ['POST', `/sessions/${mine.sessionId}/messages`, { text: 'let me in' }],
      ['GET', `/runs/${mine.runId}`],
      ['GET', `/runs/${mine.runId}/view`],
      ['GET', `/runs/${mine.runId}/events`],
      ['POST', `/runs/${mine.runId}/stop`],
      ['POST', `/runs/${mine.runId}/supplements`, { text: 'let me in' }],
      ['POST', `/apps/${space.appId}/runs`, { input: 'continue their session', sessionId: mine.sessionId }],
    ] as const;
  const listed = async (name: string) => {
    const { status, body } = await (clients.get(name) as TestClient).request('GET', `/apps/${space.appId}/sessions`);
    expect(status).toBe(200);
    return (body as { sessions: { id: string }[] }).sessions.map((session) => session.id);
  };

  it("hides a viewer's session from another viewer and from app keys: 404 everywhere, absent from the list", async () => {
    for (const name of ['second-viewer', 'app-key', 'another-app-key']) {
      for (const [method, path, body] of sessionRoutes()) {
        const response = await (clients.get(name) as TestClient).request(method, path, body);
        expect(response.status, `${name} ${method} ${path}`).toBe(404);
        expect(response.body, `${name} ${method} ${path}`).toMatchObject({ error: { code: 'not-found' } });
        expect(JSON.stringify(response.body)).not.toContain('private');
      }
      expect(await listed(name)).not.toContain(mine.sessionId);
    }
  });

  it('shows it to the viewer who started it, to editors and above, and to space keys', async () => {
    for (const name of ['first-viewer', 'editor', 'owner', 'space-key']) {
      const session = await (clients.get(name) as TestClient).request('GET', `/sessions/${mine.sessionId}/history`);
      expect(session.status, name).toBe(200);
      expect(JSON.stringify(session.body)).toContain('hello, this is private');
      expect((await (clients.get(name) as TestClient).request('GET', `/runs/${mine.runId}`)).status, name).toBe(200);
      expect(await listed(name)).toContain(mine.sessionId);
    }
  });

  it("lets an app key see the sessions it started and not another key's", async () => {
    const started = await (clients.get('app-key') as TestClient).request('POST', `/apps/${space.appId}/runs?wait=30`, {
      input: 'from the integration',
      mode: 'blocking',
    });
    expect(started.status).toBe(200);
    const { run } = started.body as { run: { id: string; sessionId: string } };
    expect((await (clients.get('app-key') as TestClient).request('GET', `/runs/${run.id}`)).status).toBe(200);
    expect(await listed('app-key')).toEqual([run.sessionId]);
    expect((await (clients.get('another-app-key') as TestClient).request('GET', `/runs/${run.id}`)).status).toBe(404);
    expect(await listed('another-app-key')).toEqual([]);
    expect(await listed('second-viewer')).toEqual([]);
  });
});
