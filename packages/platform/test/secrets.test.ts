import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, secretValues } from './scenario.js';

describe.each(dialects)('credentials on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
  });
  afterAll(() => platform.destroy());

  it('never returns or logs a key value in a full scenario, and stores keys encrypted', async () => {
    const owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const space = await buildSpace(owner, 'Secrets');
    const base = `/spaces/${space.spaceId}`;
    // Rotate: a second labelled key becomes the active one; the first stays, inactive (P-14.8).
    const added = await owner.request('POST', `${base}/model-connections/${space.vendorConnectionId}/keys`, {
      label: 'rotated',
      value: secretValues.rotatedModelKey,
      active: true,
    });
    expect(added.status).toBe(201);
    const keys = (added.body as { connection: { keys: { label: string; active: boolean; mask: string }[] } }).connection.keys;
    expect(keys.map((key) => [key.label, key.active])).toEqual([
      ['main', false],
      ['rotated', true],
    ]);
    expect(keys.every((key) => key.mask.includes('…') && key.mask.length < 12)).toBe(true);
    // Every read path that touches credentials.
    await owner.request('GET', `${base}/model-connections`);
    await owner.request('GET', `${base}/model-connections/${space.vendorConnectionId}`);
    await owner.request('PATCH', `${base}/model-connections/${space.vendorConnectionId}/keys/${space.vendorKeyId}`, {
      active: true,
    });
    const test = await owner.request('POST', `${base}/model-connections/${space.vendorConnectionId}/test`, {
      modelId: 'vendor-model',
    });
    expect((test.body as { ok: boolean }).ok).toBe(false); // nothing listens on port 9
    await owner.request('GET', `${base}/secrets`);
    await owner.request('GET', `/apps/${space.appId}/releases/1`);
    await owner.request('GET', `/apps/${space.appId}/draft`);
    await owner.request('GET', `${base}/resources/${space.toolId}/versions`);
    await owner.request('POST', `${base}/secrets`, { name: 'TOOL_TOKEN', value: secretValues.toolToken }); // 409, must not echo it
    await owner.request('POST', '/auth/login', { email: 'owner@example.com', password: secretValues.toolToken }); // a wrong password is not logged either

    const everything = [...owner.bodies, ...platform.logLines].join('\n');
    expect(platform.logLines.length).toBeGreaterThan(20);
    for (const value of Object.values(secretValues)) expect(everything).not.toContain(value);
    // An API key's secret is shown once, in the response that created it, and never logged.
    for (const secret of [space.spaceKeySecret, space.appKeySecret]) {
      expect(owner.bodies.filter((body) => body.includes(secret))).toHaveLength(1);
      expect(platform.logLines.join('\n')).not.toContain(secret);
    }

    const { database } = platform.services;
    const stored = [
      ...(await database.selectFrom('model_connection_keys').select('ciphertext').execute()).map((row) => row.ciphertext),
      ...(await database.selectFrom('secrets').select('ciphertext').execute()).map((row) => row.ciphertext),
    ];
    expect(stored.length).toBe(3);
    for (const ciphertext of stored) {
      expect(ciphertext.startsWith('v1.')).toBe(true);
      for (const value of Object.values(secretValues)) expect(ciphertext).not.toContain(value);
    }
    const opened = stored.map((ciphertext) => platform.services.secretBox.open(ciphertext)).sort();
    expect(opened).toEqual(Object.values(secretValues).sort());
    const snapshots = await database.selectFrom('app_releases').select('config_snapshot').execute();
    for (const row of snapshots)
      for (const value of Object.values(secretValues)) expect(row.config_snapshot).not.toContain(value);
  });
});
