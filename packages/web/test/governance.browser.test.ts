import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { callFrom, signInThroughPage } from './browser/console-api.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';
import { HeldToolServer, ScriptedModelServer } from './browser/scripted-endpoints.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/governance/', import.meta.url));
const viewer = { email: 'viewer@example.com', password: 'viewer-password-1234' };
const editor = { email: 'editor@example.com', password: 'editor-password-1234' };

/**
 * Governance and teams in real Chromium against the real `agentloom serve` (fresh SQLite data
 * directory, scripted model and tool servers): permission rules set in the agent editor (bad
 * input at the field, a repeated rule reported at the rule), an `ask` rule's approval asked in
 * place on the chat page and answered both ways (approve: the tool runs; deny: it never does);
 * a Plan–Executor agent built in the editor and chatted with, its task tree in the run view; and
 * the editor's debug mode running the unpublished draft (refused while the draft is invalid); and
 * a viewer who reads agents and runs but cannot save or publish, with the server's 403 shown when
 * a role is taken away under an open editor. Every page passes axe-core (no serious violation).
 */
describe.runIf(chromiumAvailable())('governance and teams in Chromium', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let removeBuild: () => void = () => {};
  const model = new ScriptedModelServer();
  const tool = new HeldToolServer();
  const pageErrors: string[] = [];
  let spaceId = '';
  let spaceUrl = '';
  let carefulApp = '';
  /** The page a failing test's screenshot is taken of. */
  let failureShot: Page | undefined;

  async function checkPage(name: string, target: Page = page): Promise<void> {
    await target.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(target);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  async function call<Result>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await callFrom<Result>(page, method, path, body, headers);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  }

  async function signIn(target: Page, email: string, password: string): Promise<void> {
    await signInThroughPage(target, platform.url, email, password);
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    await Promise.all([model.start(), tool.start()]);
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(20_000);
    context.on('page', (opened) => opened.on('pageerror', (error) => pageErrors.push(error.message)));
    page = await context.newPage();
    await signIn(page, platform.adminEmail, platform.adminPassword);
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Governance' });
    spaceId = space.id;
    spaceUrl = `${platform.url}/spaces/${space.id}`;
    const scripted = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    });
    const lookup = await call<{ resource: { id: string } }>('POST', `/spaces/${space.id}/resources`, {
      type: 'tool',
      name: 'lookup',
      content: {
        kind: 'http',
        description: 'Looks something up.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        request: { method: 'POST', url: `${tool.url}/lookup`, headers: {} },
        timeoutMs: 600_000,
      },
    });
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Careful helper',
    });
    carefulApp = app.id;
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: scripted.connection.id, modelId: 'scripted' },
          prompt: { text: 'You answer questions.' },
          capabilities: { builtIn: [], tools: [lookup.resource.id], skills: [] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    for (const user of [viewer, editor]) {
      await call('POST', '/users', { email: user.email, displayName: user.email, password: user.password });
      await call('POST', `/spaces/${space.id}/members`, { email: user.email, role: user === viewer ? 'viewer' : 'editor' });
    }
  }, 180_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await (failureShot ?? page).screenshot({
        path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`,
        fullPage: true,
      });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await Promise.all([model.close(), tool.close()]);
    removeBuild();
  });

  it('sets permission rules in the editor: bad input at the field, a repeated rule at the rule, then ask on lookup', async () => {
    await page.goto(`${spaceUrl}/agents/${carefulApp}`);
    await page.getByRole('heading', { level: 1, name: 'Agent: Careful helper' }).waitFor();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await page.getByText('No rule yet: every tool call follows the decision below.').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 1: tool').fill('look up');
    await page.getByRole('button', { name: 'Save draft' }).click();
    // The server refuses the pattern (a space); its message stands at the field.
    await page.getByRole('alert').filter({ hasText: 'Not saved.' }).waitFor();
    await expect(page.getByLabel('Rule 1: tool').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage('01-permissions-refused');

    await page.getByLabel('Rule 1: tool').fill('lookup');
    await page.getByLabel('Rule 1: decision').selectOption('ask');
    await page.getByLabel('Rule 1: reason (optional)').fill('Lookups cost money.');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 2: tool').fill('lookup');
    await page.getByLabel('Rule 2: decision').selectOption('deny');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page
      .getByRole('tabpanel')
      .getByText(/Rule 1 already matches the same calls of "lookup"/)
      .waitFor();
    await checkPage('02-permissions-repeated-rule');

    await page.getByRole('button', { name: 'Remove rule 2' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The draft is ready to publish.').waitFor();
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Release notes').fill('Ask before every lookup.');
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await expect(page.getByLabel('Rule 1: tool').inputValue()).resolves.toBe('lookup');
    await expect(page.getByLabel('Rule 1: decision').inputValue()).resolves.toBe('ask');
    await checkPage('03-permissions-saved');
  });

  it('asks for approval in place on the chat page; approved, the tool runs and the run answers', async () => {
    await page.goto(`${spaceUrl}/agents/${carefulApp}/chat`);
    await page.getByRole('textbox', { name: 'Message' }).fill('A slow question: the tides at Brest?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const approvals = page.getByRole('region', { name: 'Approvals' });
    await approvals.getByText('Approval needed:').waitFor();
    await approvals.getByText('Lookups cost money.').waitFor();
    expect(tool.calls).toBe(0);
    await checkPage('04-chat-approval-asked');
    await approvals.getByRole('button', { name: 'Approve' }).click();
    await tool.called();
    await approvals.getByText(/^Approved by /).waitFor();
    tool.release();
    await page.getByText(/answer: .*tide tables for \d+ characters/).waitFor();
    await page.getByText('The run has ended; its event stream is closed.').waitFor();
    expect(tool.calls).toBe(1);
    await checkPage('05-chat-approved');
  });

  it('denied: the tool is never called, the run ends, and the run view records the decision', async () => {
    await page.getByRole('link', { name: 'New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Another slow one: the tides at Dover?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const approvals = page.getByRole('region', { name: 'Approvals' });
    await approvals.getByRole('button', { name: 'Deny' }).click();
    await approvals.getByText(/^Denied by /).waitFor();
    await page.getByText('The run has ended; its event stream is closed.').waitFor();
    expect(tool.calls).toBe(1);
    await checkPage('06-chat-denied');
    await page.getByRole('link', { name: 'Run view' }).last().click();
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor();
    await page.getByText(/Lookups cost money\. — denied by /).waitFor();
    await checkPage('07-run-view-denied');
  });

  it('builds a Plan–Executor agent whose executor copies the planner’s capabilities once, chats with it, and shows its task tree', async () => {
    await page.goto(`${spaceUrl}/agents`);
    await page.getByLabel('Name', { exact: true }).fill('Tide team');
    await page.getByLabel('Plan–Executor').check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent: Tide team' }).waitFor();
    await page.getByLabel('Planner prompt: text').fill('Split the question into tasks for your executors.');
    await page.getByRole('checkbox', { name: 'lookup' }).first().check();
    await page.getByRole('tab', { name: 'Model' }).click();
    await page.getByLabel('Model connection').selectOption({ label: 'Scripted' });
    await page.getByRole('tab', { name: 'Executor roles' }).click();
    await page.getByRole('button', { name: "Add executor with a copy of the planner's capabilities" }).click();
    const executorCapabilities = page.getByRole('group', { name: 'Executor 1 capabilities' });
    await expect(executorCapabilities.getByRole('checkbox', { name: 'lookup' }).isChecked()).resolves.toBe(true);
    // A copy, once: taking the tool away from the planner leaves the executor's copy alone (P-4.4).
    await page.getByRole('tab', { name: 'Planner' }).click();
    await page.getByRole('checkbox', { name: 'lookup' }).first().uncheck();
    await page.getByRole('tab', { name: 'Executor roles' }).click();
    await expect(executorCapabilities.getByRole('checkbox', { name: 'lookup' }).isChecked()).resolves.toBe(true);
    await checkPage('08-plan-executor-roles');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved (revision 2).').waitFor();
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();

    await page.goto(`${page.url()}/chat`);
    await page.getByRole('textbox', { name: 'Message' }).fill('Please delegate: when are the tides?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText(/^answer: .*hello/).waitFor();
    await page.getByText('The run has ended; its event stream is closed.').waitFor();
    await checkPage('09-plan-executor-chat');
    await page.getByRole('link', { name: 'Run view' }).last().click();
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor();
    const tree = page.locator('ul.task-tree');
    await tree.waitFor();
    // The planner's task with the executor's task under it.
    await tree.locator(':scope > li > ul > li').filter({ hasText: 'executor-1' }).waitFor();
    const loops = page.getByRole('table', { name: 'Loops per role' });
    await loops.getByRole('cell', { name: 'executor-1' }).waitFor();
    await checkPage('10-plan-executor-run-view');
  });

  it('runs the unpublished draft from the editor in debug mode: field and server errors shown, the answer in place, no session listed', async () => {
    await page.goto(`${spaceUrl}/agents`);
    await page.getByLabel('Name', { exact: true }).fill('Draft tryout');
    await page.getByLabel('ReAct').check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agent: Draft tryout' }).waitFor();
    const debug = page.getByRole('region', { name: 'Debug: try the draft' });
    await debug.getByRole('button', { name: 'Run the draft' }).click();
    await debug.getByText('Type a question for the draft first.').waitFor();
    await expect(debug.getByLabel('Debug question').getAttribute('aria-invalid')).resolves.toBe('true');
    // The empty draft cannot run: the server's refusal is shown, and its problems at their fields.
    await debug.getByLabel('Debug question').fill('Hello, draft?');
    await debug.getByRole('button', { name: 'Run the draft' }).click();
    await debug.getByRole('alert').filter({ hasText: 'The draft did not run.' }).filter({ hasText: 'draft-invalid' }).waitFor();
    await page.getByRole('tabpanel').getByText('A ReAct agent needs a prompt.').waitFor();
    await checkPage('11-debug-refused');

    await page.getByLabel('Prompt: text').fill('You answer questions.');
    await page.getByRole('tab', { name: 'Model' }).click();
    await page.getByLabel('Model connection').selectOption({ label: 'Scripted' });
    await expect(debug.getByRole('button', { name: 'Run the draft' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await debug.getByRole('button', { name: 'Run the draft' }).click();
    await debug.getByText('hello', { exact: true }).waitFor();
    await debug.getByText('Finished: the agent answered.').or(debug.getByText('succeeded')).first().waitFor();
    await checkPage('12-debug-answered');

    // Nothing was published, and the debug session is not one of the agent's sessions.
    await page.goto(`${page.url()}/sessions`);
    await page.getByText('No session yet: ask the agent something in the chat.').waitFor();
    await page.goto(page.url().replace(/\/sessions$/, '/releases'));
    await page.getByRole('heading', { level: 1, name: 'Releases of Draft tryout' }).waitFor();
    await expect(page.getByRole('cell', { name: 'v1', exact: true }).count()).resolves.toBe(0);
  });

  it('lets a viewer read agents and runs but not save or publish; a role taken away under an open editor shows the 403', async () => {
    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    viewerContext.setDefaultTimeout(20_000);
    const reader = await viewerContext.newPage();
    failureShot = reader;
    reader.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(reader, viewer.email, viewer.password);
    await reader.goto(`${spaceUrl}/agents`);
    await reader.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await reader.getByRole('link', { name: 'Careful helper' }).first().waitFor();
    await expect(reader.getByRole('button', { name: 'Create agent' }).count()).resolves.toBe(0);
    await checkPage('13-viewer-agents', reader);
    // The app's run log is for editors: the refusal is shown in words, not an empty table.
    await reader.goto(`${spaceUrl}/agents/${carefulApp}/runs`);
    await reader.getByRole('alert').filter({ hasText: 'forbidden' }).waitFor();
    await checkPage('14-viewer-run-log-refused', reader);
    // A viewer uses the agent and reads their own run.
    await reader.goto(`${spaceUrl}/agents/${carefulApp}/chat`);
    await reader.getByRole('textbox', { name: 'Message' }).fill('Hi there, what do you do?');
    await reader.getByRole('button', { name: 'Ask' }).click();
    await reader.getByText('hello', { exact: true }).waitFor();
    await reader.getByRole('link', { name: 'Run view' }).last().click();
    await reader.getByText('Finished: the agent answered.').waitFor();
    await checkPage('15-viewer-run-view', reader);
    await reader.goto(`${spaceUrl}/agents/${carefulApp}`);
    await reader.getByText('the agent is read-only for you').waitFor();
    await reader.getByRole('tab', { name: 'Permissions' }).click();
    await expect(reader.getByLabel('Rule 1: decision').isDisabled()).resolves.toBe(true);
    await expect(reader.getByRole('button', { name: 'Add rule' }).count()).resolves.toBe(0);
    await expect(reader.getByRole('button', { name: /Save draft|Saved/ }).count()).resolves.toBe(0);
    await expect(reader.getByRole('button', { name: 'Publish…' }).count()).resolves.toBe(0);
    await expect(reader.getByRole('button', { name: 'Run the draft' }).count()).resolves.toBe(0);
    // Forced through the API, the server refuses too.
    const draft = await callFrom<{ draft: { revision: number; config: unknown } }>(reader, 'GET', `/apps/${carefulApp}/draft`);
    const forcedSave = await callFrom<{ error: { code: string } }>(
      reader,
      'PUT',
      `/apps/${carefulApp}/draft`,
      { config: draft.body.draft.config },
      { 'if-match': `"${draft.body.draft.revision}"` },
    );
    const forcedPublish = await callFrom<{ error: { code: string } }>(reader, 'POST', `/apps/${carefulApp}/releases`, {
      notes: 'x',
    });
    expect([forcedSave.status, forcedSave.body.error.code, forcedPublish.status, forcedPublish.body.error.code]).toEqual([
      403,
      'forbidden',
      403,
      'forbidden',
    ]);
    await viewerContext.close();

    // An editor opens the editor; the owner makes them a viewer; their save is refused in words.
    const editorContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    editorContext.setDefaultTimeout(20_000);
    const writer = await editorContext.newPage();
    failureShot = writer;
    writer.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(writer, editor.email, editor.password);
    await writer.goto(`${spaceUrl}/agents/${carefulApp}`);
    await writer.getByRole('tab', { name: 'Permissions' }).click();
    await writer.getByLabel('Rule 1: reason (optional)').fill('Lookups cost a lot of money.');
    const { members } = await call<{ members: { userId: string; email: string }[] }>('GET', `/spaces/${spaceId}/members`);
    const member = members.find((candidate) => candidate.email === editor.email);
    await call('PATCH', `/spaces/${spaceId}/members/${member?.userId}`, { role: 'viewer' });
    await writer.getByRole('button', { name: 'Save draft' }).click();
    await writer.getByRole('alert').filter({ hasText: 'Not saved.' }).filter({ hasText: 'forbidden' }).waitFor();
    await writer.getByText('the agent is read-only for you').waitFor();
    await expect(writer.getByRole('button', { name: /Save draft|Saved/ }).count()).resolves.toBe(0);
    await checkPage('16-demoted-editor-refused', writer);
    await editorContext.close();
    expect(pageErrors).toEqual([]);
  });
});
