import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inputWorkflowDefinition } from '../../platform/test/input-workflow-fixture.js';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

const screenshotDirectory = fileURLToPath(new URL('../test-results/workflow-input/', import.meta.url));

/**
 * Human input from the workflow run page (issue 36) in real Chromium against the real
 * `agentloom serve` (fresh SQLite data directory, the console built from the current sources): a
 * run of a workflow whose input node asks "Publish …?" shows `waiting for input` and the question
 * with its choices; clicking one answers it and the run finishes with that answer. Another run,
 * waiting, is stopped with the page's Stop button. axe-core finds no serious violation.
 */
describe.runIf(chromiumAvailable())('human input on the workflow run page in Chromium', { timeout: 120_000 }, () => {
  let session: ConsoleSession;
  let page: Page;
  let appUrl = '';
  let appId = '';
  const call = <Result>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    session.call<Result>(method, path, body, headers);
  const checkPage = (name: string) => session.checkPage(name);

  beforeAll(async () => {
    session = await openConsoleSession({ screenshotDirectory });
    page = session.page;
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
    appUrl = `${session.platform.url}/spaces/${space.id}/workflows/${app.id}`;
  }, 180_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
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
    expect(session.pageErrors).toEqual([]);
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
