import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';

describe.each(dialects)('identity and spaces on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'admin@example.com', { admin: true });
    await seedUser(platform, 'ann@example.com');
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

  it('gives 401 to anonymous calls, whatever their body', async () => {
    const client = new TestClient(platform);
    expect((await client.request('GET', '/spaces')).status).toBe(401);
    expect((await client.request('POST', '/spaces', '{not json')).status).toBe(401);
  });
});
