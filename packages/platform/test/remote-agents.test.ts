import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RemoteAgentServer, startRemoteAgentServer } from './a2a-remote-agent-server.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { type RunBody, waitForTerminal } from './run-helpers.js';
import { ToolCallingModelServer } from './tool-calling-model.js';

async function ok<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;
const token = 'a2a-remote-token-4b1d';

/**
 * The remote agent resource (issue 32, N-13) against a remote agent served by the official
 * `@a2a-js/sdk` server on 127.0.0.1 that demands a bearer token: the token is kept as a space
 * secret, the card is read through the egress module by the card route, and runs over HTTP — an
 * agent whose role delegates to it and a workflow whose capability node calls it — finish with its
 * answer, each message received exactly once.
 */
describe.each(dialects)('remote agent resources on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let remote: RemoteAgentServer;
  let model: ToolCallingModelServer;
  let base: string;
  let connectionId: string;
  let resourceId: string;

  beforeAll(async () => {
    remote = await startRemoteAgentServer({ bearer: token });
    model = await new ToolCallingModelServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    const { space } = await ok<{ space: { id: string } }>(owner.request('POST', '/spaces', { name: 'Remote agents' }), 201);
    base = `/spaces/${space.id}`;
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
    await remote.close();
    await model.close();
  });

  it('keeps the credential as a secret, refuses literal ones and refused destinations, and reads the card through the egress module', async () => {
    const literal = await owner.request('POST', `${base}/resources`, {
      type: 'remote-agent',
      name: 'researcher',
      content: { cardUrl: remote.cardUrl, description: 'Answers research questions.', headers: { Authorization: 'Bearer x' } },
    });
    expect(literal.status).toBe(422);
    expect(errorCode(literal.body)).toBe('literal-credential');
    const refused = await owner.request('POST', `${base}/resources`, {
      type: 'remote-agent',
      name: 'internal',
      content: { cardUrl: 'http://10.1.2.3/.well-known/agent-card.json', description: 'Internal.' },
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: { code: string; details: { field: string } } }).error).toMatchObject({
      code: 'egress-denied',
      details: { field: 'content.cardUrl' },
    });
    const badName = await owner.request('POST', `${base}/resources`, {
      type: 'remote-agent',
      name: 'has spaces',
      content: { cardUrl: remote.cardUrl, description: 'x' },
    });
    expect(badName.status).toBe(400);

    resourceId = (
      await ok<{ resource: { id: string } }>(
        owner.request('POST', `${base}/resources`, {
          type: 'remote-agent',
          name: 'researcher',
          description: 'The research team’s agent.',
          content: {
            cardUrl: remote.cardUrl,
            description: 'Answers research questions.',
            headers: { Authorization: { secret: 'RESEARCHER_TOKEN' } },
          },
        }),
        201,
      )
    ).resource.id;
    const card = (id: string) => owner.request('POST', `${base}/resources/${id}/agent-card`);
    const missing = await card(resourceId);
    expect(missing.status).toBe(422);
    expect(errorCode(missing.body)).toBe('secret-missing');
    await ok(owner.request('POST', `${base}/secrets`, { name: 'RESEARCHER_TOKEN', value: 'Bearer wrong' }), 201);
    const unauthorised = await card(resourceId);
    expect(unauthorised.status).toBe(502);
    expect((unauthorised.body as { error: unknown }).error).toMatchObject({
      code: 'card-unreachable',
      details: { httpStatus: 401 },
    });
    const secrets = await ok<{ secrets: { id: string; name: string }[] }>(owner.request('GET', `${base}/secrets`), 200);
    const secretId = secrets.secrets.find((secret) => secret.name === 'RESEARCHER_TOKEN')?.id;
    await ok(owner.request('DELETE', `${base}/secrets/${secretId}`), 200);
    await ok(owner.request('POST', `${base}/secrets`, { name: 'RESEARCHER_TOKEN', value: `Bearer ${token}` }), 201);
    const read = await ok<{ card: Record<string, unknown> }>(card(resourceId), 200);
    expect(read.card).toMatchObject({
      name: 'Remote researcher',
      interfaceUrl: remote.cardUrl.replace('/.well-known/agent-card.json', '/a2a/jsonrpc'),
      streaming: true,
      skills: [{ id: 'research', name: 'Research', description: 'Answers a research question.' }],
    });

    const prompt = await ok<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, { type: 'prompt', name: 'P', content: { text: 'x' } }),
      201,
    );
    const wrongType = await card(prompt.resource.id);
    expect(wrongType.status).toBe(422);
    expect(errorCode(wrongType.body)).toBe('not-a-remote-agent');
    // The version as the API shows it holds the reference, never the token.
    for (const text of owner.bodies) expect(text).not.toContain(token);
  });

  it('runs an agent whose role delegates to the remote agent; the run finishes with its answer', async () => {
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: 'react', name: 'Delegating agent' }),
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
            prompt: { text: 'Delegate research to the researcher.' },
            capabilities: { remoteAgents: [resourceId] },
          },
        },
        { 'if-match': `"${draft.revision}"` },
      ),
      200,
    );
    const received = remote.texts.length;
    const published = await ok<{ release: { id: string } }>(
      owner.request('POST', `/apps/${app.id}/releases`, { notes: 'remote' }),
      201,
    );
    // Publishing builds the agent as a dry run: nothing is sent to the remote agent.
    expect(remote.texts.length).toBe(received);
    const release = await platform.services.database
      .selectFrom('app_releases')
      .select('config_snapshot')
      .where('id', '=', published.release.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(release.config_snapshot).entry.remoteAgents).toEqual([{ resourceId, version: 1, name: 'researcher' }]);
    const references = await ok<{ references: { releaseId: string | null }[] }>(
      owner.request('GET', `${base}/resources/${resourceId}/references`),
      200,
    );
    expect(references.references.map((reference) => reference.releaseId)).toContain(published.release.id);

    const input = `call researcher {"task":"launch date ${dialect}"}`;
    const finished = await owner.request('POST', `/apps/${app.id}/runs?wait=60`, { input, mode: 'blocking' });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const run = (finished.body as { run: RunBody }).run;
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(String(run.output)).toContain(`remote says: launch date ${dialect}`);
    expect(model.offered.at(-1)).toContain('researcher');
    expect(remote.texts.filter((text) => text === `launch date ${dialect}`)).toHaveLength(1);
    expect([...remote.received.values()].every((count) => count === 1)).toBe(true);
    expect(remote.authorizations.at(-1)).toBe(`Bearer ${token}`);
  });

  it('runs a workflow whose capability node is bound to the remote agent through bindings.remoteAgents', async () => {
    const { app } = await ok<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'workflow', name: 'Research flow' }),
      201,
    );
    const definition = {
      formatVersion: 1,
      kind: 'workflow',
      name: 'research-flow',
      state: {
        question: { reducer: 'last-value', schema: { type: 'string' } },
        answer: { reducer: 'last-value', schema: { type: 'string' } },
      },
      nodes: [{ name: 'ask', kind: 'capability', tool: 'researcher', input: { task: 'question' }, output: 'answer' }],
      edges: [
        { from: 'START', to: 'ask' },
        { from: 'ask', to: 'END' },
      ],
      output: ['answer'],
    };
    const save = async (bindings: unknown) => {
      const { draft } = await ok<{ draft: { revision: number } }>(owner.request('GET', `/apps/${app.id}/draft`), 200);
      await ok(
        owner.request(
          'PUT',
          `/apps/${app.id}/draft`,
          { config: { definition, bindings } },
          { 'if-match': `"${draft.revision}"` },
        ),
        200,
      );
    };
    await save({});
    const unbound = await owner.request('POST', `/apps/${app.id}/releases`, { notes: 'unbound' });
    expect(unbound.status).toBe(422);
    expect((unbound.body as { error: { details: { issues: { path: string; code: string }[] } } }).error.details.issues).toEqual([
      expect.objectContaining({ path: 'definition.nodes.0.tool', code: 'unbound' }),
    ]);
    await save({ remoteAgents: { researcher: { resourceId } } });
    await ok(owner.request('POST', `/apps/${app.id}/releases`, { notes: 'remote node' }), 201);
    const accepted = await ok<{ runId: string }>(
      owner.request('POST', `/apps/${app.id}/runs`, { input: { question: `sources ${dialect}` } }),
      202,
    );
    const run = await waitForTerminal(owner, accepted.runId);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(JSON.stringify(run.output)).toContain(`remote says: sources ${dialect}`);
    expect(remote.texts.filter((text) => text === `sources ${dialect}`)).toHaveLength(1);
  });
});
