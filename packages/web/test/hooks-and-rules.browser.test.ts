import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { callFrom, signInThroughPage } from './browser/console-api.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';
import { ScriptedModelServer } from './browser/scripted-endpoints.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/hooks-and-rules/', import.meta.url));

type Draft = {
  revision: number;
  config: { hooks?: string[]; permissions?: { rules: { arguments?: Record<string, string> }[] } };
};

/**
 * Hooks, argument patterns, the debug-free run log and the shared app list in real Chromium against
 * the real `agentloom serve` (fresh SQLite data directory, a scripted model): the Hooks page refuses
 * bad input at each field and lists hooks by trigger point; the agent editor's Hooks group shows
 * them under their trigger points and saves the choice; a permission rule's argument patterns are
 * added, checked at the field and saved; the run log hides debug runs of the draft until asked and
 * marks them; the workflows list (the agents list's shared page) checks the name at its field.
 * Every page passes axe-core (no serious violation).
 */
describe.runIf(chromiumAvailable())('hooks, argument patterns and the run log in Chromium', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  const model = new ScriptedModelServer();
  const pageErrors: string[] = [];
  let spaceUrl = '';
  let spaceId = '';
  let appId = '';

  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  async function call<Result>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await callFrom<Result>(page, method, path, body, headers);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  }

  async function finished(runId: string): Promise<void> {
    await expect
      .poll(async () => (await call<{ run: { status: string } }>('GET', `/runs/${runId}`)).run.status, { timeout: 20_000 })
      .toMatch(/^(succeeded|failed|stopped)$/);
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    await model.start();
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughPage(page, platform.url, platform.adminEmail, platform.adminPassword);
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Hooks' });
    spaceId = space.id;
    spaceUrl = `${platform.url}/spaces/${space.id}`;
    const scripted = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    });
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Hooked helper',
    });
    appId = app.id;
    const { draft } = await call<{ draft: Draft }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: { model: { connectionId: scripted.connection.id, modelId: 'scripted' }, prompt: { text: 'You answer.' } },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    // A hook at another trigger point, made through the API.
    await call('POST', `/spaces/${space.id}/resources`, {
      type: 'hook',
      name: 'Audit the end',
      content: { trigger: 'Stop', kind: 'http', url: 'http://127.0.0.1:9/stop', headers: {} },
    });
  }, 180_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await model.close();
    removeBuild();
  });

  it('creates a hook on the Hooks page: bad input refused at each field, then listed under its trigger point', async () => {
    await page.goto(`${spaceUrl}/hooks`);
    await page.getByRole('heading', { level: 1, name: 'Hooks' }).waitFor();
    const form = page.getByRole('region', { name: 'New hook' });
    await form.getByLabel('Timeout (ms)').fill('5');
    await form.getByRole('button', { name: 'Create hook' }).click();
    await form.getByText('Give the hook a name.').waitFor();
    await form.getByText('Choose when the hook is called.').waitFor();
    await form.getByText('Enter a full http(s) URL.').waitFor();
    await form.getByText('A whole number of milliseconds from 100 to 600000.').waitFor();
    for (const label of ['Name', 'Trigger point', 'URL', 'Timeout (ms)'])
      await expect(form.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    // Only tool trigger points take tool names.
    await expect(form.getByLabel('Applies to tools').count()).resolves.toBe(0);
    await form.getByLabel('Trigger point').selectOption('PreToolUse');
    await form.getByLabel('Applies to tools').fill('write_file, bad name');
    await form.getByRole('button', { name: 'Create hook' }).click();
    await form.getByText(/^Tool names or patterns \(letters/).waitFor();
    await checkPage('01-hook-refused');

    await form.getByLabel('Name', { exact: true }).fill('Guard writes');
    await form.getByLabel('URL').fill('http://127.0.0.1:9/guard');
    await form.getByLabel('Applies to tools').fill('write_file, edit_*');
    await form.getByLabel('Timeout (ms)').fill('3000');
    await form.getByLabel('Deny the step when the hook fails (fail closed)').check();
    await form.getByRole('button', { name: 'Create hook' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Guard writes' });
    await row.getByRole('cell', { name: 'PreToolUse', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'write_file, edit_*' }).waitFor();
    await row.getByRole('cell', { name: 'deny (fail closed)' }).waitFor();
    const stopRow = page.getByRole('row').filter({ hasText: 'Audit the end' });
    await stopRow.getByRole('cell', { name: 'Stop', exact: true }).waitFor();
    await stopRow.getByRole('cell', { name: 'not a tool trigger point' }).waitFor();
    // In run order: the tool hook before the ending one.
    const names = await page.getByRole('row').allInnerTexts();
    expect(names.findIndex((text) => text.includes('Guard writes'))).toBeLessThan(
      names.findIndex((text) => text.includes('Audit the end')),
    );
    await checkPage('02-hooks-listed');
  });

  it('shows hooks by trigger point in the agent editor and saves the choice', async () => {
    await page.goto(`${spaceUrl}/agents/${appId}`);
    await page.getByRole('heading', { level: 1, name: 'Agent: Hooked helper' }).waitFor();
    await page.getByRole('tab', { name: 'Hooks' }).click();
    const preToolUse = page.getByRole('group', { name: /^PreToolUse/ });
    await preToolUse.getByRole('checkbox', { name: /Guard writes/ }).check();
    await expect(
      page.getByRole('group', { name: /^Stop/ }).getByRole('checkbox', { name: 'Audit the end' }).isChecked(),
    ).resolves.toBe(false);
    await page.getByText(/^No hook yet at SessionStart, UserPromptSubmit, PostToolUse/).waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await checkPage('03-editor-hooks');
    const { resources } = await call<{ resources: { id: string; name: string }[] }>(
      'GET',
      `/spaces/${spaceId}/resources?type=hook`,
    );
    const guard = resources.find((resource) => resource.name === 'Guard writes');
    const { draft } = await call<{ draft: Draft }>('GET', `/apps/${appId}/draft`);
    expect(draft.config.hooks).toEqual([guard?.id]);
    // Untick again: the agent is published below without hooks.
    await preToolUse.getByRole('checkbox', { name: /Guard writes/ }).uncheck();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
  });

  it('edits a permission rule’s argument patterns: bad names refused at the field, the patterns saved', async () => {
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 1: tool').fill('write_file');
    await page.getByLabel('Rule 1: decision').selectOption('deny');
    const patterns = page.getByRole('group', { name: 'Rule 1: argument patterns' });
    await patterns.getByRole('button', { name: 'Add argument pattern to rule 1' }).click();
    await patterns.getByText('An argument name: letters, digits and _ (at most 64).').waitFor();
    await patterns.getByText(/^Enter a pattern, such as/).waitFor();
    await expect(patterns.getByLabel('Rule 1: new argument name').getAttribute('aria-invalid')).resolves.toBe('true');
    await patterns.getByLabel('Rule 1: new argument name').fill('path name');
    await patterns.getByLabel('Rule 1: new argument pattern').fill('/etc/*');
    await patterns.getByRole('button', { name: 'Add argument pattern to rule 1' }).click();
    await patterns.getByText('An argument name: letters, digits and _ (at most 64).').waitFor();
    await checkPage('04-argument-pattern-refused');

    await patterns.getByLabel('Rule 1: new argument name').fill('path');
    await patterns.getByRole('button', { name: 'Add argument pattern to rule 1' }).click();
    await expect(patterns.getByLabel('Rule 1: pattern for argument path').inputValue()).resolves.toBe('/etc/*');
    // The same name twice is refused at the field.
    await patterns.getByLabel('Rule 1: new argument name').fill('path');
    await patterns.getByLabel('Rule 1: new argument pattern').fill('/var/*');
    await patterns.getByRole('button', { name: 'Add argument pattern to rule 1' }).click();
    await patterns.getByText('This rule already has a pattern for "path".').waitFor();
    await patterns.getByLabel('Rule 1: new argument name').fill('mode');
    await patterns.getByRole('button', { name: 'Add argument pattern to rule 1' }).click();
    await patterns.getByLabel('Rule 1: pattern for argument mode').fill('');
    await patterns.getByText('Enter a pattern, or remove it.').waitFor();
    await patterns.getByRole('button', { name: 'Remove pattern for mode from rule 1' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    const { draft } = await call<{ draft: Draft }>('GET', `/apps/${appId}/draft`);
    expect(draft.config.permissions?.rules[0]?.arguments).toEqual({ path: '/etc/*' });
    await page.reload();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await expect(page.getByLabel('Rule 1: pattern for argument path').inputValue()).resolves.toBe('/etc/*');
    await checkPage('05-argument-pattern-saved');
  });

  it('hides debug runs of the draft from the run log until asked, and marks them when shown', async () => {
    await call('POST', `/apps/${appId}/releases`, { notes: 'first' });
    const ordinary = await call<{ runId: string }>('POST', `/apps/${appId}/runs`, { input: 'Hello?' });
    const debug = await call<{ runId: string }>('POST', `/apps/${appId}/runs`, { input: 'Hello, draft?', release: 'draft' });
    await finished(ordinary.runId);
    await finished(debug.runId);
    await page.goto(`${spaceUrl}/agents/${appId}/runs`);
    await page.getByRole('heading', { level: 1, name: 'Run log of Hooked helper' }).waitFor();
    await page.getByRole('link', { name: ordinary.runId }).waitFor();
    await expect(page.getByRole('link', { name: debug.runId }).count()).resolves.toBe(0);
    await checkPage('06-run-log-without-debug');
    // The box follows the URL (?debug=include), so it turns checked once the page has navigated.
    await page.getByLabel('Show debug runs of the draft').click();
    await expect.poll(() => page.getByLabel('Show debug runs of the draft').isChecked()).toBe(true);
    const debugRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: debug.runId }) });
    await debugRow.getByText('debug run of the draft').waitFor();
    await expect(
      page
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: ordinary.runId }) })
        .getByText('debug run of the draft')
        .count(),
    ).resolves.toBe(0);
    expect(new URL(page.url()).searchParams.get('debug')).toBe('include');
    await checkPage('07-run-log-with-debug');
  });

  it('checks a new workflow’s name at the field on the shared app list page, then opens its editor', async () => {
    await page.goto(`${spaceUrl}/workflows`);
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    await page.getByText('No workflow yet.').waitFor();
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByText('Give the workflow a name.').waitFor();
    await expect(page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await checkPage('08-workflows-name-refused');
    await page.getByLabel('Name', { exact: true }).fill('Tide flow');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow: Tide flow' }).waitFor();
    await page.goto(`${spaceUrl}/agents`);
    const row = page.getByRole('row').filter({ hasText: 'Hooked helper' });
    await row.getByRole('cell', { name: 'ReAct' }).waitFor();
    await row.getByRole('link', { name: 'Chat with Hooked helper' }).waitFor();
    await checkPage('09-agents-list');
    expect(pageErrors).toEqual([]);
  });
});
