import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inputWorkflowDefinition } from '../../platform/test/input-workflow-fixture.js';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

const screenshotDirectory = fileURLToPath(new URL('../test-results/workflow-input/', import.meta.url));

/**
 * Human input from the workflow run page (issue 36) in real Chromium against the real
 * `agentloom serve` (fresh SQLite data directory, the console built from the current sources): a
 * run of a workflow whose input node asks "Publish …?" shows `waiting for input` and the question
 * with its choices; clicking one answers it and the run finishes with that answer. Another run,
 * waiting, is stopped with the page's Stop button. axe-core finds no serious violation.
 */
describe.runIf(chromiumAvailable())('human input on the workflow run page in Chromium', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  let appUrl = '';
  let appId = '';
  const pageErrors: string[] = [];

  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  /** Calls the API from inside the page with the console's session (cookie + CSRF token). */
  async function call<Result>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await page.evaluate(
      async ({ method, path, body, headers }) => {
        const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
        const token = localStorage.getItem('agentloom.csrf-token');
        if (token) all['x-csrf-token'] = token;
        const response = await fetch(`/api/v1${path}`, {
          method,
          headers: all,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      { method, path, body, headers },
    );
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body as Result;
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${platform.url}/sign-in`);
    await page.getByLabel('Email').fill(platform.adminEmail);
    await page.getByLabel('Password').fill(platform.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Input' });
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'workflow',
      name: 'Ask to publish',
    });
    appId = app.id;
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      { config: { definition: inputWorkflowDefinition, bindings: { agents: {}, tools: {} } } },
      { 'if-match': `"${draft.revision}"` },
    );
    await call('POST', `/apps/${app.id}/releases`, { notes: 'first' });
    appUrl = `${platform.url}/spaces/${space.id}/workflows/${app.id}`;
  }, 180_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    removeBuild();
  });

  it('shows the question of a waiting run and answers it from the page; the run finishes with the answer', async () => {
    const { runId } = await call<{ runId: string }>('POST', `/apps/${appId}/runs`, { input: { request: 'the report' } });
    await page.goto(`${appUrl}/runs/${runId}`);
    await page.getByText('Publish the report?').waitFor();
    await page.getByText('waiting for input').first().waitFor();
    expect(await page.locator('.flow-node[data-status="interrupted"]').count()).toBe(1);
    await checkPage('01-waiting-for-input');
    await page.getByRole('button', { name: 'yes', exact: true }).click();
    const output = page.getByTestId('run-output');
    await output.waitFor();
    expect(JSON.parse((await output.textContent()) ?? '')).toEqual({ decision: 'yes' });
    const { run } = await call<{ run: { status: string; pendingInputs: unknown[] } }>('GET', `/runs/${runId}`);
    expect(run).toMatchObject({ status: 'succeeded', pendingInputs: [] });
    await checkPage('02-answered');
    // The run is over: no question and no Stop button any more.
    expect(await page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('stops a waiting run with the Stop button of its page', async () => {
    const { runId } = await call<{ runId: string }>('POST', `/apps/${appId}/runs`, { input: { request: 'the memo' } });
    await page.goto(`${appUrl}/runs/${runId}`);
    await page.getByText('Publish the memo?').waitFor();
    await page.getByRole('button', { name: 'Stop run' }).click();
    await page.getByText(/No output: the run ended stopped/).waitFor();
    const { run } = await call<{ run: { status: string } }>('GET', `/runs/${runId}`);
    expect(run.status).toBe('stopped');
    expect(await page.getByText('Publish the memo?').count()).toBe(0);
    await checkPage('03-stopped');
  });
});
