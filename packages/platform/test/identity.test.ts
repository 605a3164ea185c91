import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';

describe.each(dialects)('identity and spaces on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'admin@example.com', { admin: true });
    await seedUser(platform, 'ann@example.com');
    await seedUser(platform, 'root@example.com', { admin: true });
  });
  afterAll(() => platform.destroy());

  it('signs in with a cookie session and refuses a change without the CSRF token', async () => {
    const client = await new TestClient(platform).login('ann@example.com', 'correct horse battery staple');
    const me = await client.request('GET', '/auth/me');
    expect(me.status).toBe(200);
    expect((me.body as { user: { email: string } }).user.email).toBe('ann@example.com');
    const created = await client.request('POST', '/spaces', { name: 'Research' });
    expect(created.status).toBe(201);

    const response = await platform.app.request('/api/v1/spaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: (client as unknown as { cookie: string }).cookie },
      body: JSON.stringify({ name: 'No token' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('csrf-token-invalid');
  });

  it('rate-limits failed logins per account', async () => {
    const client = new TestClient(platform);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await client.request('POST', '/auth/login', { email: 'admin@example.com', password: 'wrong' })).status).toBe(401);
    }
    const limited = await client.request('POST', '/auth/login', {
      email: 'admin@example.com',
      password: 'correct horse battery staple',
    });
    expect(limited.status).toBe(429);
    expect((limited.body as { error: { code: string } }).error.code).toBe('too-many-attempts');
  });

  it('shows who made each API key, lists a user’s keys, and revokes them when that user is disabled with revokeApiKeys', async () => {
    const ann = await new TestClient(platform).login('ann@example.com', 'correct horse battery staple');
    const root = await new TestClient(platform).login('root@example.com', 'correct horse battery staple');
    const annId = ((await ann.request('GET', '/auth/me')).body as { user: { id: string } }).user.id;
    const spaceId = ((await ann.request('POST', '/spaces', { name: 'Keys' })).body as { space: { id: string } }).space.id;
    const appId = (
      (await ann.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode: 'react', name: 'Keyed' })).body as {
        app: { id: string };
      }
    ).app.id;
    const spaceKey = (await ann.request('POST', `/spaces/${spaceId}/api-keys`, { name: 'ci' })).body as {
      key: { id: string; createdBy: unknown };
      secret: string;
    };
    const appKey = (await ann.request('POST', `/apps/${appId}/api-keys`, { name: 'site' })).body as { key: { id: string } };
    const creator = { id: annId, email: 'ann@example.com', displayName: 'ann' };
    expect(spaceKey.key.createdBy).toEqual(creator);
    const listed = (await ann.request('GET', `/spaces/${spaceId}/api-keys`)).body as { keys: { createdBy: unknown }[] };
    expect(listed.keys.map((key) => key.createdBy)).toEqual([creator]);
    const rootSpace = ((await root.request('POST', '/spaces', { name: 'Root' })).body as { space: { id: string } }).space.id;
    const rootKey = (await root.request('POST', `/spaces/${rootSpace}/api-keys`, { name: 'root' })).body as { secret: string };

    const made = (await root.request('GET', `/users/${annId}/api-keys`)).body as { keys: { id: string }[] };
    expect(made.keys.map((key) => key.id).sort()).toEqual([spaceKey.key.id, appKey.key.id].sort());
    const keyClient = TestClient.withApiKey(platform, spaceKey.secret);
    expect((await keyClient.request('GET', `/spaces/${spaceId}`)).status).toBe(200);
    // A key read with the app its path names (issue 34) is checked the same way.
    expect((await keyClient.request('GET', `/apps/${appId}`)).status).toBe(200);

    const withoutDisable = await root.request('PATCH', `/users/${annId}`, { revokeApiKeys: true });
    expect([withoutDisable.status, (withoutDisable.body as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid-request',
    ]);
    const disabled = await root.request('PATCH', `/users/${annId}`, { status: 'disabled', revokeApiKeys: true });
    expect(disabled.status).toBe(200);
    const revoked = (disabled.body as { revokedApiKeys: { id: string; revokedAt: string | null }[] }).revokedApiKeys;
    expect(revoked.map((key) => key.id).sort()).toEqual([spaceKey.key.id, appKey.key.id].sort());
    expect(revoked.every((key) => key.revokedAt !== null)).toBe(true);
    expect((await keyClient.request('GET', `/spaces/${spaceId}`)).status).toBe(401);
    expect((await keyClient.request('GET', `/apps/${appId}`)).status).toBe(401);
    expect((await keyClient.request('GET', '/runs/run_none/events')).status).toBe(401);
    // Keys other people made keep working.
    expect((await TestClient.withApiKey(platform, rootKey.secret).request('GET', `/spaces/${rootSpace}`)).status).toBe(200);
    const afterwards = (await root.request('GET', `/users/${annId}/api-keys`)).body as { keys: { revokedAt: string | null }[] };
    expect(afterwards.keys.every((key) => key.revokedAt !== null)).toBe(true);
  });

  it('gives 401 to anonymous calls, whatever their body', async () => {
    const client = new TestClient(platform);
    expect((await client.request('GET', '/spaces')).status).toBe(401);
    expect((await client.request('POST', '/spaces', '{not json')).status).toBe(401);
  });
});
