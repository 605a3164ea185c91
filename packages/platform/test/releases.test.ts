import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAssemblyPorts } from '../src/application/releases/database-assembly-ports.js';
import { assembleAgent } from '../src/assembly/index.js';
import type { AgentReleaseSnapshot } from '../src/domain/release-snapshot.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

describe.each(dialects)('drafts and releases on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let space: SpaceFixture;

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await buildSpace(owner, 'Releases');
  });
  afterAll(() => platform.destroy());

  const readRelease = async (version: number) => {
    const response = await owner.request('GET', `/apps/${space.appId}/releases/${version}`);
    expect(response.status).toBe(200);
    return (response.body as { release: { contentHash: string; snapshot: AgentReleaseSnapshot } }).release;
  };

  it('keeps a release immutable while the draft and its resources change (NOT-8), and the release runs a question', async () => {
    const before = await readRelease(1);
    expect(before.snapshot.entry.prompt).toEqual({ resourceId: space.promptId, version: 1 });
    expect(JSON.stringify(before.snapshot)).not.toContain('sk-');

    // Change the shared prompt (new version) and the draft itself.
    expect(
      (
        await owner.request('POST', `/spaces/${space.spaceId}/resources/${space.promptId}/versions`, {
          content: { text: 'Version two of the prompt.' },
        })
      ).status,
    ).toBe(201);
    const { draft } = (await owner.request('GET', `/apps/${space.appId}/draft`)).body as {
      draft: { revision: number; config: Record<string, unknown> };
    };
    const edited = await owner.request(
      'PUT',
      `/apps/${space.appId}/draft`,
      { config: { ...draft.config, prompt: { text: 'An inline prompt now.' } } },
      { 'if-match': `"${draft.revision}"` },
    );
    expect(edited.status).toBe(200);

    const after = await readRelease(1);
    expect(after).toEqual(before);

    // The release builds into an SDK agent that answers a scripted question with the pinned config.
    const app = await platform.services.database
      .selectFrom('apps')
      .selectAll()
      .where('id', '=', space.appId)
      .executeTakeFirstOrThrow();
    const agent = await assembleAgent(after.snapshot, databaseAssemblyPorts(platform.services, app));
    const result = await agent.run({ sessionId: `session-${randomUUID()}`, input: 'What is AgentLoom?' }).result();
    expect(result.status).toBe('succeeded');
    expect(result.output).toBe('AgentLoom keeps runs alive across crashes.');

    // A second publish pins the new state in release 2; release 1 is untouched.
    const published = await owner.request('POST', `/apps/${space.appId}/releases`, { notes: 'second' });
    expect(published.status).toBe(201);
    const second = await readRelease(2);
    expect(second.snapshot.entry.prompt).toEqual({ text: 'An inline prompt now.' });
    expect(await readRelease(1)).toEqual(before);
    const list = (await owner.request('GET', `/apps/${space.appId}/releases`)).body as { releases: { version: number }[] };
    expect(list.releases.map((release) => release.version)).toEqual([2, 1]);
  });

  it("freezes the model's context window from the connection's catalogue, so runs can compress and checkpoint (issue 34)", async () => {
    const { draft } = (await owner.request('GET', `/apps/${space.appId}/draft`)).body as {
      draft: { revision: number; config: Record<string, unknown> };
    };
    // The demo model's catalogue entry gives no window: the snapshot says nothing.
    const withoutWindow = await owner.request('POST', `/apps/${space.appId}/releases`, { notes: 'no window' });
    expect(withoutWindow.status).toBe(201);
    const unbounded = (withoutWindow.body as { release: { version: number } }).release.version;
    expect((await readRelease(unbounded)).snapshot.model.contextWindow).toBeUndefined();
    // The vendor model's catalogue entry has 128,000 tokens: publishing pins them.
    const switched = await owner.request(
      'PUT',
      `/apps/${space.appId}/draft`,
      { config: { ...draft.config, model: { connectionId: space.vendorConnectionId, modelId: 'vendor-model' } } },
      { 'if-match': `"${draft.revision}"` },
    );
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    const published = await owner.request('POST', `/apps/${space.appId}/releases`, { notes: 'vendor model' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const release = await readRelease((published.body as { release: { version: number } }).release.version);
    expect(release.snapshot.model.contextWindow).toBe(128_000);
    // Put the draft back for the tests that follow.
    const { draft: current } = (await owner.request('GET', `/apps/${space.appId}/draft`)).body as {
      draft: { revision: number };
    };
    const restored = await owner.request(
      'PUT',
      `/apps/${space.appId}/draft`,
      { config: draft.config },
      { 'if-match': `"${current.revision}"` },
    );
    expect(restored.status).toBe(200);
  });

  it('refuses a stale If-Match with 412 and a missing one with 428, changing nothing', async () => {
    const { draft } = (await owner.request('GET', `/apps/${space.appId}/draft`)).body as {
      draft: { revision: number; config: Record<string, unknown> };
    };
    const stale = await owner.request(
      'PUT',
      `/apps/${space.appId}/draft`,
      { config: { ...draft.config, variables: { a: 'b' } } },
      { 'if-match': `"${draft.revision - 1}"` },
    );
    expect(stale.status).toBe(412);
    expect((stale.body as { error: { code: string } }).error.code).toBe('stale-revision');
    const missing = await owner.request('PUT', `/apps/${space.appId}/draft`, { config: draft.config });
    expect(missing.status).toBe(428);
    const now = (await owner.request('GET', `/apps/${space.appId}/draft`)).body as {
      draft: { revision: number; config: Record<string, unknown> };
    };
    expect(now.draft).toEqual(draft);
  });

  it('reports every draft problem at once and publishes nothing when the draft is invalid', async () => {
    const created = await owner.request('POST', `/spaces/${space.spaceId}/apps`, {
      kind: 'agent',
      mode: 'plan-executor',
      name: 'Broken',
    });
    const appId = (created.body as { app: { id: string } }).app.id;
    const put = await owner.request(
      'PUT',
      `/apps/${appId}/draft`,
      { config: { prompt: { resourceId: 'res_missing' }, capabilities: { tools: [space.promptId] } } },
      { 'if-match': '"1"' },
    );
    expect(put.status).toBe(200);
    const validation = (await owner.request('POST', `/apps/${appId}/draft/validate`)).body as {
      valid: boolean;
      issues: { path: string; code: string }[];
    };
    expect(validation.valid).toBe(false);
    expect(validation.issues.map((issue) => `${issue.path}:${issue.code}`).sort()).toEqual(
      [
        'capabilities.tools.0:wrong-type',
        'executors:required',
        'model:required',
        'planner:required',
        'prompt:not-found',
        'prompt:wrong-mode',
      ].sort(),
    );
    const publish = await owner.request('POST', `/apps/${appId}/releases`, {});
    expect(publish.status).toBe(422);
    expect((publish.body as { error: { code: string } }).error.code).toBe('draft-invalid');
    expect(((await owner.request('GET', `/apps/${appId}/releases`)).body as { releases: unknown[] }).releases).toEqual([]);
  });

  it('keeps the mode fixed and answers "who uses this"', async () => {
    const patch = await owner.request('PATCH', `/apps/${space.appId}`, { mode: 'plan-executor' });
    expect(patch.status).toBe(422);
    expect((patch.body as { error: { code: string } }).error.code).toBe('mode-immutable');
    const references = (await owner.request('GET', `/spaces/${space.spaceId}/resources/${space.toolId}/references`)).body as {
      references: { appId: string; releaseVersion: number | null }[];
    };
    expect(references.references.some((reference) => reference.appId === space.appId && reference.releaseVersion === 1)).toBe(
      true,
    );
    // A referenced resource is archived, not deleted.
    const deleted = await owner.request('DELETE', `/spaces/${space.spaceId}/resources/${space.toolId}`);
    expect(deleted.body).toEqual({ archived: true });
    expect(
      ((await owner.request('GET', `/spaces/${space.spaceId}/resources/${space.toolId}`)).body as { resource: { state: string } })
        .resource.state,
    ).toBe('archived');
  });

  it('refuses a release whose dry-run build fails (a tool schema that does not compile), saving nothing', async () => {
    const tool = await owner.request('POST', `/spaces/${space.spaceId}/resources`, {
      type: 'tool',
      name: 'broken',
      content: {
        kind: 'http',
        description: 'Broken.',
        parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } },
        request: { method: 'POST', url: 'http://127.0.0.1:9/x' },
      },
    });
    expect(tool.status).toBe(201);
    const created = await owner.request('POST', `/spaces/${space.spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Dry run',
    });
    const appId = (created.body as { app: { id: string } }).app.id;
    const config = {
      model: { connectionId: space.demoConnectionId, modelId: 'demo-1' },
      prompt: { text: 'Hi.' },
      capabilities: { tools: [(tool.body as { resource: { id: string } }).resource.id] },
    };
    expect((await owner.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': '"1"' })).status).toBe(200);
    const publish = await owner.request('POST', `/apps/${appId}/releases`, {});
    expect(publish.status).toBe(422);
    expect((publish.body as { error: { code: string } }).error.code).toBe('release-build-failed');
    expect(((await owner.request('GET', `/apps/${appId}/releases`)).body as { releases: unknown[] }).releases).toEqual([]);
    const app = (await owner.request('GET', `/apps/${appId}`)).body as { app: { latestReleaseId: string | null } };
    expect(app.app.latestReleaseId).toBeNull();
  });
});
