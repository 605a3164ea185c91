import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentReleaseSnapshot } from '../src/domain/release-snapshot.js';
import type { RunWorker } from '../src/worker/index.js';
import { createTestPlatform, dialects, seedUser, TestClient, type TestPlatform } from './harness.js';
import { waitForTerminal, waitUntil } from './run-helpers.js';
import { buildScriptedApp, CountingToolServer, ScriptedModelServer } from './scripted-servers.js';

interface ApprovalView {
  approvalId: string;
  toolName: string;
  decision?: { approved: boolean };
}

/**
 * The draft's permission rules (deny / ask / allow, P-4.2): bad rules are refused with 400 at
 * their paths and nothing is saved; a repeated rule is a validation problem; a published `ask`
 * rule makes a real run wait for an approval, and the decision (approve, deny) lets the tool call
 * run or keeps it from ever reaching the tool; a `deny` rule blocks the call outright.
 */
describe.each(dialects)('permission rules of a draft on %s', (dialect) => {
  let platform: TestPlatform;
  let owner: TestClient;
  let model: ScriptedModelServer;
  let tool: CountingToolServer;
  let worker: RunWorker;
  let fixture: Awaited<ReturnType<typeof buildScriptedApp>>;

  beforeAll(async () => {
    model = await new ScriptedModelServer().start();
    tool = await new CountingToolServer().start();
    platform = await createTestPlatform(dialect);
    await seedUser(platform, 'owner@example.com');
    owner = await new TestClient(platform).login('owner@example.com', 'correct horse battery staple');
    fixture = await buildScriptedApp(owner, model.url, tool.url, 'Permissions');
    worker = platform.startWorker();
  });
  afterAll(async () => {
    await worker?.stop?.();
    await platform.destroy();
    await model.close();
    await tool.close();
  });

  const readDraft = async () =>
    (
      (await owner.request('GET', `/apps/${fixture.appId}/draft`)).body as {
        draft: { revision: number; config: Record<string, unknown> };
      }
    ).draft;

  const saveDraft = async (permissions: unknown) => {
    const draft = await readDraft();
    return owner.request(
      'PUT',
      `/apps/${fixture.appId}/draft`,
      { config: { ...draft.config, permissions } },
      { 'if-match': `"${draft.revision}"` },
    );
  };

  const publishWith = async (permissions: unknown) => {
    expect((await saveDraft(permissions)).status).toBe(200);
    const published = await owner.request('POST', `/apps/${fixture.appId}/releases`, { notes: JSON.stringify(permissions) });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    return (published.body as { release: { version: number } }).release.version;
  };

  const approvalsOf = async (runId: string) =>
    ((await owner.request('GET', `/runs/${runId}/view`)).body as { view: { agent?: { approvals: ApprovalView[] } } }).view.agent
      ?.approvals ?? [];

  it('refuses bad rules with 400 at their paths and saves nothing', async () => {
    const before = await readDraft();
    const refused = await saveDraft({
      rules: [
        { tool: 'lookup', decision: 'maybe' },
        { tool: 'has space', decision: 'deny' },
        { tool: 'lookup', decision: 'ask', when: 'always' },
      ],
      default: 'never',
    });
    expect(refused.status).toBe(400);
    const error = (refused.body as { error: { code: string; details: { issues: { path: string }[] } } }).error;
    expect(error.code).toBe('invalid-request');
    const paths = error.details.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'config.permissions.rules.0.decision',
        'config.permissions.rules.1.tool',
        'config.permissions.rules.2',
        'config.permissions.default',
      ]),
    );
    expect((await readDraft()).revision).toBe(before.revision);
  });

  it('reports a rule that repeats an earlier one, at its path', async () => {
    expect(
      (
        await saveDraft({
          rules: [
            { tool: 'look*', decision: 'ask' },
            { tool: 'look*', decision: 'deny' },
          ],
        })
      ).status,
    ).toBe(200);
    const checked = await owner.request('POST', `/apps/${fixture.appId}/draft/validate`);
    const issues = (checked.body as { issues: { path: string; code: string }[] }).issues;
    expect(issues).toEqual([expect.objectContaining({ path: 'permissions.rules.1', code: 'duplicate' })]);
  });

  it('asks before an `ask` tool call: approved, the tool runs and the run answers', async () => {
    const version = await publishWith({ rules: [{ tool: 'lookup', decision: 'ask', reason: 'Lookups cost money.' }] });
    const release = (await owner.request('GET', `/apps/${fixture.appId}/releases/${version}`)).body as {
      release: { snapshot: AgentReleaseSnapshot };
    };
    expect(release.release.snapshot.permissions).toEqual({
      rules: [{ tool: 'lookup', decision: 'ask', reason: 'Lookups cost money.' }],
      default: 'allow',
    });
    const question = `please lookup approved ${dialect}`;
    const started = await owner.request('POST', `/apps/${fixture.appId}/runs`, { input: question });
    expect(started.status).toBe(202);
    const { runId } = started.body as { runId: string };
    let approvals: ApprovalView[] = [];
    await waitUntil(async () => {
      approvals = await approvalsOf(runId);
      return approvals.length > 0;
    });
    expect(approvals).toEqual([expect.objectContaining({ toolName: 'lookup', reason: 'Lookups cost money.' })]);
    expect(approvals[0]?.decision).toBeUndefined();
    expect(tool.calls.get(question)).toBeUndefined();
    // An undecided approval shows the run as waiting for a person, like a workflow's input node (issue 36).
    const waiting = (await owner.request('GET', `/runs/${runId}`)).body as { run: { status: string } };
    expect(waiting.run.status).toBe('waiting-input');
    const decided = await owner.request(
      'POST',
      `/runs/${runId}/approvals/${encodeURIComponent(approvals[0]?.approvalId ?? '')}`,
      { approved: true },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    const run = await waitForTerminal(owner, runId);
    expect(run.status).toBe('succeeded');
    expect(run.output).toContain(`found ${question.length}`);
    expect(tool.calls.get(question)).toBe(1);
    expect(await approvalsOf(runId)).toEqual([
      expect.objectContaining({ decision: expect.objectContaining({ approved: true }) }),
    ]);
  });

  it('asks before an `ask` tool call: denied, the tool is never called', async () => {
    const question = `please lookup denied ${dialect}`;
    const { runId } = (await owner.request('POST', `/apps/${fixture.appId}/runs`, { input: question })).body as { runId: string };
    let approvals: ApprovalView[] = [];
    await waitUntil(async () => {
      approvals = await approvalsOf(runId);
      return approvals.length > 0;
    });
    const decided = await owner.request(
      'POST',
      `/runs/${runId}/approvals/${encodeURIComponent(approvals[0]?.approvalId ?? '')}`,
      { approved: false },
    );
    expect(decided.status).toBeLessThan(300);
    const run = await waitForTerminal(owner, runId);
    expect(['succeeded', 'failed']).toContain(run.status);
    expect(tool.calls.get(question)).toBeUndefined();
    expect(await approvalsOf(runId)).toEqual([
      expect.objectContaining({ decision: expect.objectContaining({ approved: false }) }),
    ]);
  });

  it('blocks a `deny` tool call without asking', async () => {
    await publishWith({ rules: [{ tool: 'lookup', decision: 'deny', reason: 'No lookups today.' }] });
    const question = `please lookup blocked ${dialect}`;
    const { runId } = (await owner.request('POST', `/apps/${fixture.appId}/runs`, { input: question })).body as { runId: string };
    const run = await waitForTerminal(owner, runId);
    expect(['succeeded', 'failed']).toContain(run.status);
    expect(tool.calls.get(question)).toBeUndefined();
    expect(await approvalsOf(runId)).toEqual([]);
  });
});
