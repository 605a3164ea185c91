import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

const raw = { 'content-type': 'application/octet-stream' };

/**
 * Issue 36, part 3 (P-12.2, P-12.8): an agent's `wiki/` and `files/` managed over HTTP with the
 * SDK's confinement and the configured limits, read by the agent's file tool in a run; a
 * persistent session's work files readable, read-only.
 */
describe.each(dialects)('the agent’s files on %s', (dialect) => {
  let platform: TestPlatform;
  let model: ToolCallingModelServer;
  let owner: TestClient;
  let editor: TestClient;
  let viewer: TestClient;
  let connectionId: string;
  let spaceId: string;
  let appId: string;
  let fileRoot: string;

  async function publishFileAgent(name: string, persistent: boolean): Promise<string> {
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode: 'react', name }),
      201,
    );
    const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
    await ok(
      owner.request(
        'PUT',
        `/apps/${app.id}/draft`,
        {
          config: {
            model: { connectionId, modelId: 'scripted' },
            prompt: { text: 'Answer from the files.' },
            capabilities: { builtIn: ['workspace-files'], tools: [], skills: [] },
            environment: { persistentSandbox: persistent },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: name }), 201);
    return app.id;
  }

  async function ask(client: TestClient, app: string, input: string, sessionId?: string) {
    const body = await ok<{ run: { status: string; output: unknown; sessionId: string } }>(
      client.request('POST', `/apps/${app}/runs?wait=30`, { input, mode: 'blocking', ...(sessionId ? { sessionId } : {}) }),
      200,
    );
    return body.run;
  }

  beforeAll(async () => {
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect, { agentFiles: { maxFileBytes: 1024, maxEntries: 6 } });
    for (const name of ['owner', 'editor', 'viewer']) await seedUser(platform, `${name}@example.com`);
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    editor = await new TestClient(platform).login('editor@example.com', 'correct horse battery staple');
    viewer = await new TestClient(platform).login('viewer@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Files' }), 201);
    spaceId = space.id;
    for (const role of ['editor', 'viewer'])
      await ok(owner.request('POST', `/spaces/${spaceId}/members`, { email: `${role}@example.com`, role }), 201);
    const created = await ok<{ connection: { id: string } }>(
      owner.request('POST', `/spaces/${spaceId}/model-connections`, {
        name: 'Scripted',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-scripted-key-0123456789' },
        models: [{ modelId: 'scripted' }],
      }),
      201,
    );
    connectionId = created.connection.id;
    appId = await publishFileAgent('Price clerk', false);
    const row = await platform.services.database
      .selectFrom('apps')
      .select('file_root')
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    fileRoot = row.file_root;
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await model.close();
  });

  it('lets editors upload and delete, viewers read; folders list', async () => {
    const put = await ok<{ path: string; created: boolean; size: number }>(
      editor.request('PUT', `/apps/${appId}/files/files/prices/list.txt`, 'Widgets cost 42 euros.', raw),
      201,
    );
    expect(put).toMatchObject({ path: 'prices/list.txt', created: true, size: 22 });
    await ok(editor.request('PUT', `/apps/${appId}/files/files/prices/list.txt`, 'Widgets cost 41 euros.', raw), 200);
    await ok(editor.request('PUT', `/apps/${appId}/files/wiki/guides?kind=directory`), 201);
    await ok(editor.request('PUT', `/apps/${appId}/files/wiki/guides/intro.md`, '# Intro\nHello.', raw), 201);

    const top = await ok<{ entries: { name: string; type: string }[] }>(viewer.request('GET', `/apps/${appId}/files/files`), 200);
    expect(top.entries.map((entry) => [entry.name, entry.type])).toEqual([['prices', 'directory']]);
    const folder = await ok<{ path: string; entries: { name: string; size: number }[] }>(
      viewer.request('GET', `/apps/${appId}/files/files/prices`),
      200,
    );
    expect(folder).toMatchObject({ path: 'prices', entries: [{ name: 'list.txt', size: 22 }] });
    const file = await viewer.request('GET', `/apps/${appId}/files/wiki/guides/intro.md`);
    expect(file.status).toBe(200);
    expect(file.body).toBe('# Intro\nHello.');
    expect(file.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    // On disk, exactly where the agent's file root keeps them (P-12.2).
    expect(readFileSync(path.join(fileRoot, 'files', 'prices', 'list.txt'), 'utf8')).toBe('Widgets cost 41 euros.');

    const refused = await viewer.request('PUT', `/apps/${appId}/files/files/prices/list.txt`, 'changed', raw);
    expect(refused.status).toBe(403);
    expect((await viewer.request('DELETE', `/apps/${appId}/files/wiki/guides`)).status).toBe(403);
    await ok(editor.request('PUT', `/apps/${appId}/files/wiki/old/gone.md`, 'bye', raw), 201);
    expect(await ok(editor.request('DELETE', `/apps/${appId}/files/wiki/old`), 200)).toEqual({
      path: 'old',
      removed: 'directory',
    });
    const gone = await viewer.request('GET', `/apps/${appId}/files/wiki/old/gone.md`);
    expect(gone.status).toBe(404);
    expect((gone.body as { error: { code: string } }).error.code).toBe('file-not-found');
  });

  it('refuses a path that escapes the area, a link, and uploads past the limits, writing nothing', async () => {
    for (const escaping of ['..%2F..%2Fescaped.txt', 'a%2F..%2F..%2F..%2Fescaped.txt', '..%2Fwiki%2Fguides%2Fintro.md']) {
      for (const [method, body] of [
        ['PUT', 'escaped'],
        ['GET', undefined],
        ['DELETE', undefined],
      ] as const) {
        const response = await editor.request(method, `/apps/${appId}/files/files/${escaping}`, body, raw);
        expect(response.status, `${method} ${escaping}`).toBe(400);
        expect((response.body as { error: { code: string } }).error.code).toBe('path-outside-area');
      }
    }
    expect(existsSync(path.join(fileRoot, 'escaped.txt'))).toBe(false);
    expect(existsSync(path.join(path.dirname(fileRoot), 'escaped.txt'))).toBe(false);
    // A link planted in the area is never followed, by the routes as by the file tools.
    symlinkSync(path.dirname(fileRoot), path.join(fileRoot, 'files', 'outside'));
    for (const target of ['outside', 'outside/secret.txt']) {
      const response = await editor.request('GET', `/apps/${appId}/files/files/${target}`);
      expect(response.status, target).toBe(409);
      expect((response.body as { error: { code: string } }).error.code).toBe('path-refused');
    }
    expect(await ok(editor.request('DELETE', `/apps/${appId}/files/files/outside`), 200)).toMatchObject({ removed: 'file' });

    const tooLarge = await editor.request('PUT', `/apps/${appId}/files/files/big.bin`, new Uint8Array(1025), raw);
    expect(tooLarge.status).toBe(413);
    expect((tooLarge.body as { error: { code: string } }).error.code).toBe('file-too-large');
    expect(existsSync(path.join(fileRoot, 'files', 'big.bin'))).toBe(false);
    // Six entries per area: `prices`, `prices/list.txt`, then four more fit; the seventh is refused.
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt'])
      await ok(editor.request('PUT', `/apps/${appId}/files/files/${name}`, name, raw), 201);
    const tooMany = await editor.request('PUT', `/apps/${appId}/files/files/e.txt`, 'e', raw);
    expect(tooMany.status).toBe(422);
    expect((tooMany.body as { error: { code: string } }).error.code).toBe('too-many-files');
    // Replacing an existing file adds no entry.
    await ok(editor.request('PUT', `/apps/${appId}/files/files/d.txt`, 'again', raw), 200);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt'])
      await ok(editor.request('DELETE', `/apps/${appId}/files/files/${name}`), 200);
  });

  it('has the agent read an uploaded file with its file tool in a run', async () => {
    const question = `call read_file ${JSON.stringify({ path: '/mounts/files/prices/list.txt' })}`;
    const run = await ask(viewer, appId, question);
    expect(run.status).toBe('succeeded');
    expect(String(run.output)).toContain('Widgets cost 41 euros.');
    // The mounts are read-only in runs: the business files are managed here, not by the model.
    const write = await ask(viewer, appId, `call write_file ${JSON.stringify({ path: '/mounts/wiki/x.md', content: 'x' })}`);
    expect(String(write.output)).toContain('read-only');
    expect(existsSync(path.join(fileRoot, 'wiki', 'x.md'))).toBe(false);
  });

  it('shows a persistent session’s work files read-only; a temporary session has none', async () => {
    const keeps = await publishFileAgent('Keeper', true);
    const wrote = await ask(viewer, keeps, `call write_file ${JSON.stringify({ path: '/work/notes/out.md', content: 'kept' })}`);
    expect(wrote.status).toBe('succeeded');
    const listing = await ok<{ entries: { name: string; type: string }[] }>(
      viewer.request('GET', `/sessions/${wrote.sessionId}/files`),
      200,
    );
    expect(listing.entries).toMatchObject([{ name: 'notes', type: 'directory' }]);
    const file = await viewer.request('GET', `/sessions/${wrote.sessionId}/files/notes/out.md`);
    expect([file.status, file.body]).toEqual([200, 'kept']);
    const outside = await viewer.request('GET', `/sessions/${wrote.sessionId}/files/..%2F..%2F..%2Fsystem`);
    expect([outside.status, (outside.body as { error: { code: string } }).error.code]).toEqual([400, 'path-outside-area']);
    // Read-only: no route changes a session's files.
    expect((await viewer.request('PUT', `/sessions/${wrote.sessionId}/files/notes/out.md`, 'x', raw)).status).toBe(404);

    const temporary = await ask(viewer, appId, 'hello');
    const empty = await ok<{ entries: unknown[] }>(viewer.request('GET', `/sessions/${temporary.sessionId}/files`), 200);
    expect(empty.entries).toEqual([]);
  });
});
