import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceRole } from '../src/http/authorization.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

/**
 * The least role each space-scoped route needs, written here independently of the server's
 * policy table: the test fails when the two disagree or when a route is missing from this list.
 */
const minimumRole: Record<string, SpaceRole> = {
  'GET /spaces/{spaceId}': 'viewer',
  'PATCH /spaces/{spaceId}': 'admin',
  'DELETE /spaces/{spaceId}': 'owner',
  'GET /spaces/{spaceId}/members': 'viewer',
  'POST /spaces/{spaceId}/members': 'admin',
  'PATCH /spaces/{spaceId}/members/{userId}': 'admin',
  'DELETE /spaces/{spaceId}/members/{userId}': 'admin',
  'GET /spaces/{spaceId}/api-keys': 'admin',
  'POST /spaces/{spaceId}/api-keys': 'admin',
  'DELETE /spaces/{spaceId}/api-keys/{keyId}': 'admin',
  'GET /spaces/{spaceId}/model-connections': 'viewer',
  'POST /spaces/{spaceId}/model-connections': 'admin',
  'GET /spaces/{spaceId}/model-connections/{connectionId}': 'viewer',
  'PATCH /spaces/{spaceId}/model-connections/{connectionId}': 'admin',
  'DELETE /spaces/{spaceId}/model-connections/{connectionId}': 'admin',
  'POST /spaces/{spaceId}/model-connections/{connectionId}/keys': 'admin',
  'PATCH /spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}': 'admin',
  'DELETE /spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}': 'admin',
  'POST /spaces/{spaceId}/model-connections/{connectionId}/test': 'admin',
  'GET /spaces/{spaceId}/model-connections/{connectionId}/models': 'viewer',
  'GET /spaces/{spaceId}/secrets': 'viewer',
  'POST /spaces/{spaceId}/secrets': 'admin',
  'DELETE /spaces/{spaceId}/secrets/{secretId}': 'admin',
  'GET /spaces/{spaceId}/resources': 'viewer',
  'POST /spaces/{spaceId}/resources': 'editor',
  'GET /spaces/{spaceId}/resources/{resourceId}': 'viewer',
  'PATCH /spaces/{spaceId}/resources/{resourceId}': 'editor',
  'DELETE /spaces/{spaceId}/resources/{resourceId}': 'editor',
  'POST /spaces/{spaceId}/resources/{resourceId}/versions': 'editor',
  'GET /spaces/{spaceId}/resources/{resourceId}/versions': 'viewer',
  'GET /spaces/{spaceId}/resources/{resourceId}/versions/{version}': 'viewer',
  'GET /spaces/{spaceId}/resources/{resourceId}/references': 'viewer',
  'POST /spaces/{spaceId}/resources/{resourceId}/test': 'editor',
  'POST /spaces/{spaceId}/resources/{resourceId}/agent-card': 'editor',
  'GET /spaces/{spaceId}/resources/{resourceId}/sign-in': 'viewer',
  'POST /spaces/{spaceId}/resources/{resourceId}/sign-in': 'editor',
  'DELETE /spaces/{spaceId}/resources/{resourceId}/sign-in': 'editor',
  'GET /spaces/{spaceId}/built-in-tools': 'viewer',
  'GET /spaces/{spaceId}/apps': 'viewer',
  'POST /spaces/{spaceId}/apps': 'editor',
  'GET /apps/{appId}': 'viewer',
  'PATCH /apps/{appId}': 'editor',
  'DELETE /apps/{appId}': 'admin',
  'GET /apps/{appId}/deletion': 'viewer',
  'GET /apps/{appId}/draft': 'viewer',
  'PUT /apps/{appId}/draft': 'editor',
  'POST /apps/{appId}/draft/validate': 'viewer',
  'POST /apps/{appId}/draft/restore': 'editor',
  'POST /apps/{appId}/releases': 'editor',
  'GET /apps/{appId}/releases': 'viewer',
  'GET /apps/{appId}/releases/{version}': 'viewer',
  'GET /apps/{appId}/api-keys': 'admin',
  'POST /apps/{appId}/api-keys': 'admin',
  'DELETE /apps/{appId}/api-keys/{keyId}': 'admin',
  'GET /apps/{appId}/webhook-secret': 'admin',
  'POST /apps/{appId}/webhook-secret': 'admin',
  'GET /apps/{appId}/runs': 'editor',
  'POST /routers/{appId}/draft/try': 'viewer',
  'GET /apps/{appId}/a2a': 'viewer',
  'PUT /apps/{appId}/a2a': 'editor',
  // PUT before GET: the least-role case writes the file its GET then reads (same path length, stable sort).
  'PUT /apps/{appId}/files/{area}/{path}': 'editor',
  'GET /apps/{appId}/files/{area}': 'viewer',
  'GET /apps/{appId}/files/{area}/{path}': 'viewer',
  'DELETE /apps/{appId}/files/{area}/{path}': 'editor',
};

/**
 * The "use" routes (PLATFORM.md §4.4, ⚑): any member, space keys, and the app's own app keys
 * (never another space's). Every one of them is also checked for 401 and cross-space 404.
 */
const useRoutes: Record<string, SpaceRole> = {
  'POST /apps/{appId}/runs': 'viewer',
  'GET /apps/{appId}/sessions': 'viewer',
  'GET /sessions/{sessionId}': 'viewer',
  'GET /sessions/{sessionId}/history': 'viewer',
  'POST /sessions/{sessionId}/messages': 'viewer',
  'GET /runs/{runId}': 'viewer',
  'GET /runs/{runId}/view': 'viewer',
  'GET /runs/{runId}/agent-view': 'viewer',
  'GET /runs/{runId}/events': 'viewer',
  'POST /runs/{runId}/stop': 'viewer',
  'POST /runs/{runId}/supplements': 'viewer',
  'POST /runs/{runId}/input': 'viewer',
  'POST /runs/{runId}/approvals/{approvalId}': 'viewer',
  'POST /runs/{runId}/elicitations/{elicitationId}': 'viewer',
  'GET /runs/{runId}/webhook': 'viewer',
  'POST /routers/{appId}/messages': 'viewer',
  'GET /routers/{appId}/sessions/{sessionId}': 'viewer',
  'GET /sessions/{sessionId}/files': 'viewer',
  'POST /apps/{appId}/sessions': 'viewer',
  'PATCH /sessions/{sessionId}': 'viewer',
  'GET /runs/{runId}/nodes': 'viewer',
  'GET /sessions/{sessionId}/files/{path}': 'viewer',
};

/** Routes that are not about one space, with who may call them. */
const unscoped: Record<string, 'public' | 'user' | 'instance-admin'> = {
  'POST /auth/login': 'public',
  'POST /auth/logout': 'user',
  'GET /auth/me': 'user',
  'GET /users': 'instance-admin',
  'POST /users': 'instance-admin',
  'PATCH /users/{userId}': 'instance-admin',
  'GET /users/{userId}/api-keys': 'instance-admin',
  'GET /admin/workers': 'instance-admin',
  'POST /admin/workers/{workerId}/drain': 'instance-admin',
  'GET /admin/runs': 'instance-admin',
  'GET /spaces': 'user',
  'POST /spaces': 'user',
  'GET /mcp-sign-in/callback': 'user',
  // The platform's own demo endpoint (issue 35): public, 404 unless demo mode is on.
  'POST /demo/lookup': 'public',
  'POST /runs/{runId}/crash-worker': 'instance-admin',
};

const roles: SpaceRole[] = ['viewer', 'editor', 'admin', 'owner'];

/** A valid body for each route, so that validation never answers before authorisation does. */
function bodyOf(route: string): unknown {
  const bodies: Record<string, unknown> = {
    'PATCH /spaces/{spaceId}': { name: 'Renamed' },
    'POST /spaces/{spaceId}/members': { email: 'spare@example.com', role: 'viewer' },
    'PATCH /spaces/{spaceId}/members/{userId}': { role: 'viewer' },
    'POST /spaces/{spaceId}/api-keys': { name: 'another' },
    'POST /spaces/{spaceId}/model-connections': { name: 'Another', provider: 'offline-demo' },
    'PATCH /spaces/{spaceId}/model-connections/{connectionId}': { name: 'Renamed' },
    'POST /spaces/{spaceId}/model-connections/{connectionId}/keys': { label: 'spare', value: 'sk-spare-value-123456' },
    'PATCH /spaces/{spaceId}/model-connections/{connectionId}/keys/{keyId}': { active: true },
    'POST /spaces/{spaceId}/model-connections/{connectionId}/test': { modelId: 'vendor-model' },
    'POST /spaces/{spaceId}/secrets': { name: `S${Math.random().toString(36).slice(2, 8)}`, value: 'v' },
    'POST /spaces/{spaceId}/resources': { type: 'prompt', name: 'Another', content: { text: 'x' } },
    'PATCH /spaces/{spaceId}/resources/{resourceId}': { description: 'changed' },
    'POST /spaces/{spaceId}/resources/{resourceId}/versions': { content: { text: 'next version' } },
    'POST /spaces/{spaceId}/apps': { kind: 'agent', mode: 'react', name: 'Another' },
    'PATCH /apps/{appId}': { description: 'changed' },
    'PUT /apps/{appId}/draft': { config: {} },
    'POST /apps/{appId}/releases': { notes: 'matrix' },
    'POST /apps/{appId}/api-keys': { name: 'another' },
    'POST /users': { email: 'new@example.com', displayName: 'New', password: 'a long enough password' },
    'PATCH /users/{userId}': { displayName: 'Renamed' },
    'POST /spaces': { name: 'Mine' },
    'POST /auth/login': { email: 'nobody@example.com', password: 'x' },
    'POST /apps/{appId}/runs': { input: 'matrix question' },
    'POST /runs/{runId}/supplements': { text: 'one more thing' },
    'POST /runs/{runId}/input': { answer: 'yes' },
    'POST /sessions/{sessionId}/messages': { text: 'matrix message' },
    'POST /runs/{runId}/approvals/{approvalId}': { approved: true },
    'POST /runs/{runId}/elicitations/{elicitationId}': { action: 'decline' },
    'POST /routers/{appId}/messages': { text: 'matrix message' },
    'POST /routers/{appId}/draft/try': { text: 'matrix message' },
    'PUT /apps/{appId}/a2a': { enabled: false },
    'POST /apps/{appId}/sessions': { title: 'matrix session' },
    'POST /apps/{appId}/draft/restore': { fromVersion: 1 },
    'PATCH /sessions/{sessionId}': { title: 'renamed by the matrix' },
  };
  return bodies[route] ?? (route.startsWith('GET') ? undefined : route.startsWith('DELETE') ? undefined : {});
}

describe.each(dialects)('authorisation matrix on %s', (dialect) => {
  let platform: TestPlatform;
  let own: SpaceFixture & { runId: string; sessionId: string };
  let foreign: SpaceFixture & { runId: string; sessionId: string };
  const clients = new Map<string, TestClient>();
  /** The run and session each principal restricted to its own sessions started in `own`. */
  const ownRuns = new Map<string, { runId: string; sessionId: string }>();
  const userIds = new Map<string, string>();
  let routes: string[];

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    for (const name of ['owner', 'admin', 'editor', 'viewer', 'outsider', 'spare'])
      userIds.set(name, (await seedUser(platform, `${name}@example.com`)).id);
    for (const name of ['owner', 'admin', 'editor', 'viewer', 'outsider'])
      clients.set(name, await new TestClient(platform).login(`${name}@example.com`, 'correct horse battery staple'));
    const owner = clients.get('owner') as TestClient;
    platform.startWorker();
    /** A space with one finished run of its app (the demo model answers offline). */
    const withRun = async (client: TestClient, name: string) => {
      const space = await buildSpace(client, name);
      const started = await client.request('POST', `/apps/${space.appId}/runs?wait=30`, { input: 'hello', mode: 'blocking' });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const { run } = started.body as { run: { id: string; sessionId: string } };
      return { ...space, runId: run.id, sessionId: run.sessionId };
    };
    own = await withRun(owner, 'Space A');
    foreign = await withRun(clients.get('outsider') as TestClient, 'Space B');
    // A wiki file in each app, for the file routes to read and delete.
    for (const [client, space] of [
      [owner, own],
      [clients.get('outsider') as TestClient, foreign],
    ] as const) {
      const put = await client.request('PUT', `/apps/${space.appId}/files/wiki/matrix/notes.md`, 'notes', {
        'content-type': 'application/octet-stream',
      });
      expect(put.status, JSON.stringify(put.body)).toBe(201);
    }
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      expect((await owner.request('POST', `/spaces/${own.spaceId}/members`, { email: `${role}@example.com`, role })).status).toBe(
        201,
      );
    }
    clients.set('space-key', TestClient.withApiKey(platform, own.spaceKeySecret));
    clients.set('app-key', TestClient.withApiKey(platform, own.appKeySecret));
    clients.set('anonymous', new TestClient(platform));
    // Viewers and app keys see only the sessions they started (D-P6): each gets a run of its own.
    for (const principal of ['viewer', 'app-key']) {
      const started = await (clients.get(principal) as TestClient).request('POST', `/apps/${own.appId}/runs?wait=30`, {
        input: `hello from ${principal}`,
        mode: 'blocking',
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const { run } = started.body as { run: { id: string; sessionId: string } };
      ownRuns.set(principal, { runId: run.id, sessionId: run.sessionId });
    }
    const document = (await owner.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });
  afterAll(() => platform.destroy());

  const fill = (route: string, space: SpaceFixture & { runId: string; sessionId: string }, memberId: string) => {
    const [, template = ''] = route.split(' ');
    const keyId = template.includes('model-connections')
      ? space.vendorKeyId
      : template.startsWith('/apps')
        ? space.appKeyId
        : space.spaceKeyId;
    const version = template.includes('releases') || template.includes('versions') ? '1' : '1';
    return template
      .replace('{spaceId}', space.spaceId)
      .replace('{appId}', space.appId)
      .replace('{connectionId}', space.vendorConnectionId)
      .replace('{keyId}', keyId)
      .replace('{resourceId}', space.promptId)
      .replace('{secretId}', space.secretId)
      .replace('{userId}', memberId)
      .replace('{version}', version)
      .replace('{runId}', space.runId)
      .replace('{sessionId}', space.sessionId)
      .replace('{area}', 'wiki')
      .replace('{path}', 'matrix/notes.md')
      .replace('{approvalId}', 'approval_none')
      .replace('{workerId}', 'worker_none');
  };
  const call = (
    principal: string,
    route: string,
    space: SpaceFixture & { runId: string; sessionId: string },
    memberId: string,
  ) => {
    const [method = 'GET'] = route.split(' ');
    return (clients.get(principal) as TestClient).request(method, fill(route, space, memberId), bodyOf(route), {
      'if-match': '"999"',
    });
  };

  it('lists every route of the document in the matrix', () => {
    expect([...routes].sort()).toEqual([...Object.keys(minimumRole), ...Object.keys(useRoutes), ...Object.keys(unscoped)].sort());
  });

  it('lets members, space keys and the app’s own app key use the app; 401 without credentials; 404 across spaces', async () => {
    const failures: string[] = [];
    const member = userIds.get('viewer') as string;
    /** Access means the route answered past authorisation (a 404 with another code is about the object, e.g. an approval). */
    const denied = (response: { status: number; body: unknown }) =>
      [401, 403].includes(response.status) ||
      (response.status === 404 && (response.body as { error?: { code?: string } }).error?.code === 'not-found');
    for (const route of Object.keys(useRoutes)) {
      const anonymous = await call('anonymous', route, own, member);
      if (anonymous.status !== 401) failures.push(`${route} anonymous → ${anonymous.status}`);
      for (const principal of [...roles, 'space-key', 'app-key']) {
        const foreignResponse = await call(principal, route, foreign, member);
        const text = JSON.stringify(foreignResponse.body);
        if (foreignResponse.status !== 404 || (foreignResponse.body as { error?: { code?: string } }).error?.code !== 'not-found')
          failures.push(`${route} ${principal} on foreign → ${foreignResponse.status} ${text}`);
        if (text.includes('Space B') || text.includes(foreign.spaceId))
          failures.push(`${route} ${principal} leaked foreign data`);
        const ownResponse = await call(principal, route, { ...own, ...ownRuns.get(principal) }, member);
        if (denied(ownResponse))
          failures.push(`${route} ${principal} on own → ${ownResponse.status} ${JSON.stringify(ownResponse.body)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 404 for every route on another space’s ids, 401 without credentials, 403 below the needed role; never a leak', async () => {
    const failures: string[] = [];
    const foreignMember = userIds.get('outsider') as string;
    const ownMember = userIds.get('viewer') as string;
    for (const route of Object.keys(minimumRole)) {
      const anonymous = await call('anonymous', route, own, ownMember);
      if (anonymous.status !== 401) failures.push(`${route} anonymous → ${anonymous.status}`);
      for (const principal of [...roles, 'space-key', 'app-key']) {
        const response = await call(principal, route, foreign, foreignMember);
        const text = JSON.stringify(response.body);
        if (response.status !== 404 || (response.body as { error?: { code?: string } }).error?.code !== 'not-found')
          failures.push(`${route} ${principal} on foreign → ${response.status} ${text}`);
        if (text.includes('Space B') || text.includes(foreign.spaceId))
          failures.push(`${route} ${principal} leaked foreign data`);
      }
      const needed = roles.indexOf(minimumRole[route] as SpaceRole);
      for (const role of roles.slice(0, needed)) {
        const response = await call(role, route, own, ownMember);
        if (response.status !== 403) failures.push(`${route} ${role} on own → ${response.status}, expected 403`);
      }
      const appKey = await call('app-key', route, own, ownMember);
      if (appKey.status !== 403) failures.push(`${route} app-key on own → ${appKey.status}, expected 403`);
      const spaceKey = await call('space-key', route, own, ownMember);
      const spaceKeyAllowed = needed <= roles.indexOf('editor');
      if (!spaceKeyAllowed && spaceKey.status !== 403)
        failures.push(`${route} space-key on own → ${spaceKey.status}, expected 403`);
      if (spaceKeyAllowed && [401, 403, 404].includes(spaceKey.status))
        failures.push(`${route} space-key on own → ${spaceKey.status}, expected access`);
    }
    expect(failures).toEqual([]);
  });

  it('lets the least allowed role through on its own space', async () => {
    const failures: string[] = [];
    const ordered = Object.keys(minimumRole).sort((left, right) => {
      const rank = (route: string) => (route.startsWith('DELETE') ? 1 : 0);
      return rank(left) - rank(right) || right.length - left.length;
    });
    for (const route of ordered) {
      if (route === 'PUT /apps/{appId}/draft') continue; // covered with a real If-Match in releases.test.ts
      if (route === 'DELETE /apps/{appId}') continue; // would delete the app the next case uses; app-deletion.test.ts deletes as owner
      const response = await call(minimumRole[route] as SpaceRole, route, own, userIds.get('viewer') as string);
      if ([400, 401, 403, 404].includes(response.status))
        failures.push(`${route} ${minimumRole[route]} → ${response.status} ${JSON.stringify(response.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('keeps user and instance-admin routes to users and admins', async () => {
    const failures: string[] = [];
    // The previous case revoked the keys on purpose; make fresh ones.
    const owner = clients.get('owner') as TestClient;
    const spaceKey = (await owner.request('POST', `/spaces/${own.spaceId}/api-keys`, { name: 'fresh' })).body as {
      secret: string;
    };
    const appKey = (await owner.request('POST', `/apps/${own.appId}/api-keys`, { name: 'fresh' })).body as { secret: string };
    clients.set('space-key', TestClient.withApiKey(platform, spaceKey.secret));
    clients.set('app-key', TestClient.withApiKey(platform, appKey.secret));
    for (const [route, who] of Object.entries(unscoped)) {
      if (who === 'public') continue;
      if ((await call('anonymous', route, own, '')).status !== 401) failures.push(`${route} anonymous`);
      for (const key of ['space-key', 'app-key'])
        if ((await call(key, route, own, userIds.get('spare') as string)).status !== 403) failures.push(`${route} ${key}`);
      if (who === 'instance-admin' && (await call('owner', route, own, userIds.get('spare') as string)).status !== 403)
        failures.push(`${route} non-admin`);
    }
    // The disable call's option that revokes a user's keys is the admins' too, and revokes nothing when refused.
    const revokeOwnersKeys = { status: 'disabled', revokeApiKeys: true };
    for (const principal of ['owner', 'admin', 'space-key', 'app-key']) {
      const response = await (clients.get(principal) as TestClient).request(
        'PATCH',
        `/users/${userIds.get('owner')}`,
        revokeOwnersKeys,
      );
      if (response.status !== 403) failures.push(`PATCH /users/{userId} revokeApiKeys ${principal} → ${response.status}`);
    }
    const stillActive = await platform.services.database
      .selectFrom('api_keys')
      .select('id')
      .where('created_by', '=', userIds.get('owner') as string)
      .where('revoked_at', 'is', null)
      .execute();
    if (stillActive.length < 2) failures.push('a refused revokeApiKeys revoked keys');
    expect(failures).toEqual([]);
  });
});
