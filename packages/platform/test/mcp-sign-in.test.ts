import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type ProtectedMcpServer, startProtectedMcpServer } from './oauth-mcp-server.js';
import type { RunBody } from './run-helpers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;

/**
 * MCP sign-in (issue 32) over HTTP against an OAuth-protected MCP server on 127.0.0.1 whose
 * authorization server is the MCP SDK's own (metadata, dynamic registration, PKCE-checking token
 * endpoint): an MCP server resource with `oauth` is connected by its editor (start → the
 * authorization server's redirect → the platform's callback with the editor's session), its
 * tokens are kept sealed per space, a run uses a tool of the server, and after the access token
 * lapses a worker refreshes it through the SDK's token store backed by the database.
 */
describe.each(dialects)('MCP sign-in on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let viewer: TestClient;
  let protectedServer: ProtectedMcpServer;
  let model: ToolCallingModelServer;
  let base: string;
  let spaceId: string;
  let resourceId: string;
  let connectionId: string;

  beforeAll(async () => {
    protectedServer = await startProtectedMcpServer();
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    await seedUser(platform, 'viewer@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    viewer = await new TestClient(platform).login('viewer@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Sign-in' }), 201);
    spaceId = space.id;
    base = `/spaces/${space.id}`;
    await ok(owner.request('POST', `${base}/members`, { email: 'viewer@example.com', role: 'viewer' }), 201);
    const created = await ok<{ connection: { id: string } }>(
      owner.request('POST', `${base}/model-connections`, {
        name: 'Scripted',
        provider: 'openai-compatible',
        baseUrl: `${model.url}/v1`,
        key: { label: 'main', value: 'sk-scripted-key-0123456789' },
        models: [{ modelId: 'scripted' }],
      }),
      201,
    );
    connectionId = created.connection.id;
    platform.startWorker();
  });
  afterAll(async () => {
    await platform.destroy();
    await protectedServer.close();
    await model.close();
  });

  it('connects the server: start, the authorization server’s redirect, the callback with the editor’s session', async () => {
    resourceId = (
      await ok<{ resource: { id: string } }>(
        owner.request('POST', `${base}/resources`, {
          type: 'mcp-server',
          name: 'protected',
          content: { transport: 'streamable-http', url: protectedServer.url, oauth: {} },
        }),
        201,
      )
    ).resource.id;
    const status = () =>
      ok<{ signIn: { connected: boolean; pending: boolean } }>(
        owner.request('GET', `${base}/resources/${resourceId}/sign-in`),
        200,
      );
    expect((await status()).signIn).toMatchObject({ connected: false, pending: false });
    const untested = await owner.request('POST', `${base}/resources/${resourceId}/test`);
    expect(untested.status, JSON.stringify(untested.body)).toBe(409);
    expect(errorCode(untested.body)).toBe('mcp-sign-in-required');
    // Viewers may read the state, not start a sign-in.
    expect((await viewer.request('POST', `${base}/resources/${resourceId}/sign-in`)).status).toBe(403);

    const started = await ok<{ connected: boolean; authorizationUrl: string }>(
      owner.request('POST', `${base}/resources/${resourceId}/sign-in`),
      200,
    );
    expect(started.connected).toBe(false);
    const authorization = new URL(started.authorizationUrl);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toMatch(/\/api\/v1\/mcp-sign-in\/callback$/);
    expect(protectedServer.counts.registrations).toBe(1);
    expect((await status()).signIn.pending).toBe(true);

    // The person signs in at the authorization server, which sends them back with a code.
    const consent = await fetch(authorization, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.pathname).toBe('/api/v1/mcp-sign-in/callback');

    // Only an editor's session completes it; an unknown state is refused.
    expect((await viewer.request('GET', `/mcp-sign-in/callback${back.search}`)).status).toBe(403);
    const forged = await owner.request('GET', '/mcp-sign-in/callback?state=forged&code=x');
    expect(forged.status).toBe(400);
    expect(errorCode(forged.body)).toBe('sign-in-not-found');
    const completed = await owner.request('GET', `/mcp-sign-in/callback${back.search}`);
    expect(completed.status).toBe(200);
    const page = `/spaces/${spaceId}/mcp-servers?resource=${resourceId}&signIn=connected`;
    expect(completed.headers.get('refresh')).toBe(`0;url=${page}`);
    expect(String(completed.body)).toContain(`href="${page}"`);
    expect(protectedServer.counts.codeExchanges).toBe(1);
    expect((await status()).signIn).toMatchObject({ connected: true, pending: false });

    // The tokens are sealed at rest: the row holds no readable token.
    const row = await platform.services.database
      .selectFrom('mcp_sign_ins')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .executeTakeFirstOrThrow();
    expect(row.record_sealed).toMatch(/^v1\./);
    expect(row.record_sealed).not.toContain('access_token');
    const tested = await ok<{ tools: { name: string }[] }>(owner.request('POST', `${base}/resources/${resourceId}/test`), 200);
    expect(tested.tools.map((tool) => tool.name)).toEqual(['whoami']);
  });

  it('runs an agent that calls a tool of the connected server; a lapsed token is refreshed by the worker', async () => {
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Signed-in agent' }),
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
            prompt: { text: 'Say who you are.' },
            capabilities: { mcpServers: [resourceId] },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'signed in' }), 201);
    const run = async () => {
      const finished = await owner.request('POST', `/apps/${app.id}/runs?wait=60`, {
        input: 'call protected__whoami {}',
        mode: 'blocking',
      });
      expect(finished.status, JSON.stringify(finished.body)).toBe(200);
      return (finished.body as { run: RunBody }).run;
    };
    const first = await run();
    expect(first.status, JSON.stringify(first)).toBe('succeeded');
    expect(String(first.output)).toMatch(/answer: client=\S+ scopes=mcp:tools/);

    protectedServer.expireAccessTokens();
    const refreshes = protectedServer.counts.refreshes;
    const second = await run();
    expect(second.status, JSON.stringify(second)).toBe('succeeded');
    expect(String(second.output)).toMatch(/answer: client=\S+ scopes=mcp:tools/);
    expect(protectedServer.counts.refreshes).toBe(refreshes + 1);
    expect(protectedServer.counts.codeExchanges).toBe(1);

    // Signed out: a run is refused at its input with a reason that says to connect it.
    await ok(owner.request('DELETE', `${base}/resources/${resourceId}/sign-in`), 200);
    const refused = await run();
    expect(refused).toMatchObject({ status: 'failed', reason: 'blocked' });
    const events = await owner.request('GET', `/runs/${refused.id}/events?after=0`);
    expect(String(events.body)).toContain('mcp-unreachable');
    expect(String(events.body)).toContain('MCP server \\"protected\\" needs a sign-in');
  });
});
