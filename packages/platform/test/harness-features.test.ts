import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentReleaseSnapshot } from '../src/domain/release-snapshot.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal } from './run-helpers.js';
import { buildSpace, type SpaceFixture } from './scenario.js';

/**
 * The harness switches of an agent app (issue 37, N-15) through the HTTP API, on SQLite and
 * PostgreSQL: the draft's fallback chain, context features and memory are validated (every
 * problem at its path), pinned in the release snapshot, and a queued run typed as a `/command`
 * is expanded by the worker's agent, gets the user's instructions and the entries merged into its
 * question, and records each request's section sizes and prefix hash.
 */
describe.each(dialects)('the harness switches of an agent app on %s (N-15)', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let space: SpaceFixture;
  let appId = '';

  beforeAll(async () => {
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    space = await buildSpace(owner, 'Harness');
    const created = await owner.request('POST', `/spaces/${space.spaceId}/apps`, { kind: 'agent', mode: 'react', name: 'About' });
    appId = (created.body as { app: { id: string } }).app.id;
  });
  // Closing the platform stops its workers.
  afterAll(() => platform.destroy());

  const putDraft = async (config: Record<string, unknown>) => {
    const { draft } = (await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    const put = await owner.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  };
  const base = () => ({
    model: {
      connectionId: space.demoConnectionId,
      modelId: 'demo-1',
      fallbacks: [{ connectionId: space.vendorConnectionId, modelId: 'vendor-model' }],
    },
    prompt: { text: 'You answer questions about AgentLoom.' },
    memory: { enabled: true, budgetCharacters: 1500 },
  });

  it('reports every problem of the switches at its path', async () => {
    await putDraft({
      ...base(),
      model: {
        ...base().model,
        fallbacks: [...base().model.fallbacks, { connectionId: space.vendorConnectionId, modelId: 'nope' }],
      },
      context: {
        entries: [
          { id: 'loose', content: 'No trigger.' },
          { id: 'bad', content: 'Bad pattern.', pattern: '(' },
          { id: 'bad', content: 'Same name.', constant: true },
        ],
        commands: [
          { name: 'about', prompt: 'One.' },
          { name: 'about', prompt: 'Two.' },
        ],
      },
    });
    const { valid, issues } = (await owner.request('POST', `/apps/${appId}/draft/validate`)).body as {
      valid: boolean;
      issues: { path: string; code: string }[];
    };
    expect(valid).toBe(false);
    expect(issues.map(({ path, code }) => `${path} ${code}`).sort()).toEqual(
      [
        'context.commands.1.name duplicate',
        'context.entries.0 entry-without-trigger',
        'context.entries.1.pattern invalid-pattern',
        'context.entries.2.id duplicate',
        'model.fallbacks.1.modelId not-in-catalogue',
      ].sort(),
    );
    // A pattern the schema refuses outright is a 400 with nothing saved.
    const { draft } = (await owner.request('GET', `/apps/${appId}/draft`)).body as { draft: { revision: number } };
    const refused = await owner.request(
      'PUT',
      `/apps/${appId}/draft`,
      { config: { ...base(), context: { messageShaping: 'sideways' } } },
      { 'if-match': `"${draft.revision}"` },
    );
    expect(refused.status).toBe(400);
  });

  it('publishes the switches and a queued /command run answers with the tail merged into its question', async () => {
    await putDraft({
      ...base(),
      context: {
        userInstructions: 'Answer in one sentence.',
        messageShaping: 'merge',
        entryBudgetTokens: 200,
        entries: [
          { id: 'tone', constant: true, content: 'Be plain.' },
          { id: 'crash', keywords: ['crash'], content: 'Never mentioned here.' },
        ],
        commands: [{ name: 'about', prompt: 'Tell me about AgentLoom{{args}}.' }],
      },
    });
    const published = await owner.request('POST', `/apps/${appId}/releases`, { notes: 'switches' });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const { release } = (await owner.request('GET', `/apps/${appId}/releases/1`)).body as {
      release: { snapshot: AgentReleaseSnapshot };
    };
    expect(release.snapshot.model.fallbacks).toEqual([
      expect.objectContaining({ connectionId: space.vendorConnectionId, provider: 'openai-compatible', modelId: 'vendor-model' }),
    ]);
    expect(release.snapshot.memory).toEqual({ enabled: true, budgetCharacters: 1500 });
    expect(JSON.stringify(release.snapshot)).not.toContain('sk-');

    platform.startWorker();
    const queued = await owner.request('POST', `/apps/${appId}/runs`, { input: '/about' });
    expect(queued.status).toBe(202);
    const { runId } = queued.body as { runId: string };
    const run = await waitForTerminal(owner, runId);
    // The demo model answers this only when "agentloom" is in the last user message: the command
    // was expanded, and the instructions and entries were merged into that message, not after it.
    expect(run.status).toBe('succeeded');
    expect(run.output).toBe('AgentLoom keeps runs alive across crashes.');
    const events = await platform.services.runClient.readEvents(runId);
    const finish = events.find((event) => event.type === 'model-call-finish');
    const report = finish && 'context' in finish ? finish.context : undefined;
    expect(report?.entries).toEqual(['tone']);
    expect(report?.shaping).toBe('merge');
    expect(report?.sections.instructions).toBeGreaterThan(0);
    expect(report?.sections.tools).toBeGreaterThan(0); // remember, recall, forget
    expect(report?.prefixHash).toMatch(/^[0-9a-f]{16}$/);
    // The run names its user, which scopes the agent's facts.
    const stored = await platform.services.runClient.listRuns({ metadata: { appId }, limit: 10 });
    expect(stored.items.find((item) => item.runId === runId)?.metadata.userId).toBeTruthy();
  });
});
