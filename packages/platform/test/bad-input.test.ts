import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';

const skillText = strToU8('---\nname: notes-helper\ndescription: Use when the user asks about notes.\n---\nBody\n');
const codeOf = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

describe.each(dialects)('bad input on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let spaceId: string;

  beforeAll(async () => {
    // A small body limit (4 KiB) so that an oversized body is cheap to send; the default is 10 MiB.
    platform = await createTestPlatform(dialect, { bodyLimitBytes: 4096 });
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    spaceId = ((await owner.request('POST', '/spaces', { name: 'Input' })).body as { space: { id: string } }).space.id;
  });
  afterAll(() => platform.destroy());

  const countResources = async () => (await platform.services.database.selectFrom('resources').select('id').execute()).length;

  it('answers malformed JSON, wrong media types, unknown fields, wrong types and oversized bodies with typed 4xx, writing nothing', async () => {
    const before = await countResources();
    const malformed = await owner.request('POST', `/spaces/${spaceId}/resources`, '{"type": "prompt", "name": ');
    expect([malformed.status, codeOf(malformed.body)]).toEqual([400, 'malformed-json']);
    const text = await owner.request('POST', `/spaces/${spaceId}/resources`, 'type=prompt', { 'content-type': 'text/plain' });
    expect([text.status, codeOf(text.body)]).toEqual([415, 'unsupported-media-type']);
    const unknown = await owner.request('POST', `/spaces/${spaceId}/resources`, {
      type: 'prompt',
      name: 'P',
      content: { text: 'x' },
      colour: 'red',
    });
    expect([unknown.status, codeOf(unknown.body)]).toEqual([400, 'invalid-request']);
    expect(JSON.stringify(unknown.body)).toContain('colour');
    const wrongType = await owner.request('POST', `/spaces/${spaceId}/resources`, {
      type: 'prompt',
      name: 42,
      content: { text: 'x' },
    });
    expect([wrongType.status, codeOf(wrongType.body)]).toEqual([400, 'invalid-request']);
    const wrongContent = await owner.request('POST', `/spaces/${spaceId}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: { kind: 'http', description: 'd', parameters: { type: 'string' } },
    });
    expect([wrongContent.status, codeOf(wrongContent.body)]).toEqual([400, 'invalid-request']);
    const oversized = await owner.request('POST', `/spaces/${spaceId}/resources`, {
      type: 'prompt',
      name: 'Big',
      content: { text: 'x'.repeat(5000) },
    });
    expect([oversized.status, codeOf(oversized.body)]).toEqual([413, 'body-too-large']);
    const draftUnknown = await owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode: 'react', name: 'A' });
    const appId = (draftUnknown.body as { app: { id: string } }).app.id;
    const badDraft = await owner.request(
      'PUT',
      `/apps/${appId}/draft`,
      { config: { prompt: { text: 'x' }, temperature: 2 } },
      { 'if-match': '"1"' },
    );
    expect([badDraft.status, codeOf(badDraft.body)]).toEqual([400, 'invalid-request']);
    const draft = (await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    expect(draft.draft.revision).toBe(1);
    expect(await countResources()).toBe(before);
  });

  it('refuses skill zips with path traversal or a symbolic link, leaving no version and no file', async () => {
    const created = await owner.request('POST', `/spaces/${spaceId}/resources`, { type: 'skill', name: 'notes-helper' });
    const resourceId = (created.body as { resource: { id: string } }).resource.id;
    const upload = (zip: Uint8Array) =>
      owner.request('POST', `/spaces/${spaceId}/resources/${resourceId}/versions`, zip, { 'content-type': 'application/zip' });

    const traversal = await upload(zipSync({ 'notes-helper/SKILL.md': skillText, '../escape.txt': strToU8('out') }));
    expect([traversal.status, codeOf(traversal.body)]).toEqual([422, 'invalid-skill-package']);
    expect(JSON.stringify(traversal.body)).toContain('../escape.txt');

    const symlink = await upload(
      zipSync({
        'notes-helper/SKILL.md': skillText,
        'notes-helper/link': [strToU8('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
      }),
    );
    expect([symlink.status, codeOf(symlink.body)]).toEqual([422, 'invalid-skill-package']);
    expect(JSON.stringify(symlink.body)).toContain('symbolic link');

    const absolute = await upload(zipSync({ '/notes-helper/SKILL.md': skillText }));
    expect(absolute.status).toBe(422);
    const notZip = await upload(strToU8('this is not a zip'));
    expect([notZip.status, codeOf(notZip.body)]).toEqual([422, 'invalid-skill-package']);
    const invalidSkill = await upload(zipSync({ 'notes-helper/SKILL.md': strToU8('---\nname: Wrong_Name\n---\n') }));
    expect([invalidSkill.status, codeOf(invalidSkill.body)]).toEqual([422, 'invalid-skill-package']);

    const versions = (await owner.request('GET', `/spaces/${spaceId}/resources/${resourceId}/versions`)).body as {
      versions: unknown[];
    };
    expect(versions.versions).toEqual([]);
    const skillsRoot = path.join(platform.dataDirectory, 'resources', 'skills');
    expect(existsSync(skillsRoot) ? readdirSync(skillsRoot) : []).toEqual([]);
    expect(existsSync(path.join(platform.dataDirectory, 'escape.txt'))).toBe(false);

    // The same package without the bad entries is accepted and stored by content hash.
    const good = await upload(zipSync({ 'notes-helper/SKILL.md': skillText }));
    expect(good.status).toBe(201);
    expect(readdirSync(skillsRoot)).toHaveLength(1);
  });
});
