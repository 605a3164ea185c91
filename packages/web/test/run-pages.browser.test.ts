import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { DroppingProxy } from './browser/dropping-proxy.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';
import { HeldToolServer, ScriptedModelServer } from './browser/scripted-endpoints.js';

/** Where each step's screenshot goes (git-ignored; the README's chat image is copied from here). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/run-pages/', import.meta.url));

/**
 * The console's run pages in real Chromium against the real `agentloom serve` (fresh SQLite data
 * directory, the console built from the current sources): chat with the offline demo agent, the
 * run view and the run log; then, on an agent whose `lookup` tool answers only when the test lets
 * it (a real HTTP endpoint), supplement a running question, reload mid-run and see the stream
 * re-attach after the last event seen, end a run with End, and read the sessions and the session
 * history. axe-core finds no serious or critical violation on any of these pages.
 */
describe.runIf(chromiumAvailable())('the run pages in Chromium', { timeout: 90_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  const model = new ScriptedModelServer();
  const tool = new HeldToolServer();
  /** The browser reaches the platform through it, so the test can cut the event stream. */
  const proxy = new DroppingProxy();
  const pageErrors: string[] = [];
  const eventRequests: string[] = [];
  let spaceUrl = '';
  const apps = { demo: '', slow: '', unpublished: '' };

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

  /** Creates a ReAct agent on a connection (and tools), publishes it unless told not to; answers its id. */
  async function agent(spaceId: string, name: string, connectionId: string, modelId: string, tools: string[], publish = true) {
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name,
    });
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    const config = {
      model: { connectionId, modelId },
      prompt: { text: 'You answer questions.' },
      capabilities: { builtIn: [], tools, skills: [] },
    };
    await call('PUT', `/apps/${app.id}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
    if (publish) await call('POST', `/apps/${app.id}/releases`, { notes: 'first' });
    return app.id;
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    await Promise.all([model.start(), tool.start()]);
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    await proxy.start(platform.url);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().includes('/events')) return;
      eventRequests.push(request.url());
    });
    await page.goto(`${proxy.url}/sign-in`);
    await page.getByLabel('Email').fill(platform.adminEmail);
    await page.getByLabel('Password').fill(platform.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Runs' });
    spaceUrl = `${proxy.url}/spaces/${space.id}`;
    const demo = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Offline',
      provider: 'offline-demo',
      settings: { demoFallback: 'Offline answer: the tide turns twice a day.' },
      models: [{ modelId: 'offline-demo-1' }],
    });
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
    apps.demo = await agent(space.id, 'Demo helper', demo.connection.id, 'offline-demo-1', []);
    apps.slow = await agent(space.id, 'Tide helper', scripted.connection.id, 'scripted', [lookup.resource.id]);
    apps.unpublished = await agent(space.id, 'Not yet', demo.connection.id, 'offline-demo-1', [], false);
  }, 180_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await proxy.close();
    await platform?.stop();
    await Promise.all([model.close(), tool.close()]);
    removeBuild();
  });

  it('chats with the demo agent; shows the run view and the run log with its status filter', async () => {
    await page.goto(`${spaceUrl}/agents/${apps.unpublished}/chat`);
    await page.getByText('This agent has no release yet').waitFor();
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Type a message first.').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('alert').filter({ hasText: 'The message was not sent.' }).waitFor();

    await page.goto(`${spaceUrl}/agents/${apps.demo}/chat`);
    await page.getByText('What you send now starts a new question').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('When does the tide turn?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Sent as a new question.').waitFor();
    await page.getByText('Offline answer: the tide turns twice a day.').waitFor();
    await page.getByText('The run has ended; its event stream is closed.').waitFor();
    expect(page.url()).toMatch(/chat\?session=/);
    await checkPage('01-chat-demo');

    await page.getByRole('link', { name: 'Run view' }).click();
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor();
    await page.getByText('Finished: the agent answered.').waitFor();
    await page.getByRole('table', { name: 'Loops per role' }).getByText('Total (charged to the run)').waitFor();
    await page.getByText('No tool call in this run.').waitFor();
    await checkPage('02-run-view-demo');

    await page.getByRole('link', { name: 'Run log' }).click();
    await page.getByRole('heading', { level: 1, name: /Run log of Demo helper/ }).waitFor();
    await page.getByLabel('Status').selectOption('stopped');
    await page.getByText('No run with this status.').waitFor();
    expect(page.url()).toMatch(/status=stopped/);
    await page.getByLabel('Status').selectOption('succeeded');
    await page.getByRole('cell', { name: 'Finished: the agent answered.' }).waitFor();
    await checkPage('03-run-log');
  });

  it('sends a supplement during a run, re-attaches the stream after a reload and a dropped connection, and the run consumes the supplement', async () => {
    await page.goto(`${spaceUrl}/agents/${apps.slow}/chat`);
    await page.getByRole('textbox', { name: 'Message' }).fill('A slow question: the tides at Brest?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await tool.called();
    await page.getByText('lookup — running').waitFor();
    await page.getByText('The agent is still working: what you send now is added to the running question.').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Also mention the moon.');
    await page.getByRole('button', { name: 'Send supplement' }).click();
    await page.getByText('Sent as a supplement to the running question.').waitFor();
    await page.getByText('received, not yet read by the agent').waitFor();

    eventRequests.length = 0;
    await page.reload();
    await page.getByText(/Re-attached once, after event #[1-9]/).waitFor();
    expect(
      eventRequests.some((url) => /[?&]after=[1-9]\d*/.test(url)),
      eventRequests.join('\n'),
    ).toBe(true);
    await page.getByText('lookup — running').waitFor();
    await page.getByText('received, not yet read by the agent').waitFor();
    await checkPage('04-chat-mid-run');
    // A dropped connection: the stream says so and re-attaches by itself once the network is back.
    const requestsBeforeDrop = proxy.eventStreamRequests.length;
    proxy.dropAll();
    await page.getByText(/Live\. Re-attached [2-9] times, after event #[1-9]/).waitFor();
    // The browser re-connects with Last-Event-ID (or the page with ?after=): never from the start.
    const reconnections = proxy.eventStreamRequests.slice(requestsBeforeDrop);
    expect(reconnections.length, JSON.stringify(proxy.eventStreamRequests)).toBeGreaterThan(0);
    for (const request of reconnections)
      expect(Number(request.lastEventId ?? /after=(\d+)/.exec(request.path)?.[1] ?? 0), JSON.stringify(request)).toBeGreaterThan(
        0,
      );
    tool.release();
    await page.getByText(/answer: .*tide tables for \d+ characters.* — noted: Also mention the moon\./).waitFor();
    await page.getByText('consumed by this run').waitFor();
    await page.getByText('The run has ended; its event stream is closed.').waitFor();
    await expect(page.getByTestId('progress-loops').textContent()).resolves.toBe('2');
    await checkPage('05-chat-supplement-consumed');
  });

  it('ends a running question with End: stopped in words, partial output marked unfinished', async () => {
    await page.getByRole('textbox', { name: 'Message' }).fill('Another slow one: the tides at Dover?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('Sent as a new question.').waitFor();
    await tool.called();
    await page.getByText('lookup — running').waitFor();
    await page.getByRole('button', { name: 'End run' }).click();
    await page.getByText('Ending: calls in flight settle first.').waitFor();
    tool.release();
    await page.getByText('Stopped: someone ended the run.').waitFor();
    await page.getByText('This run ended before a final answer.').waitFor();
    await page.getByText('What you send now starts a new question').waitFor();
    await expect(page.getByRole('button', { name: 'End run' }).count()).resolves.toBe(0);
    await checkPage('06-chat-stopped');

    await page.getByRole('link', { name: 'Run view' }).last().click();
    await page.getByText('Stopped: a user pressed End.').waitFor();
    await page.getByRole('cell', { name: 'lookup' }).first().waitFor();
    await checkPage('07-run-view-stopped');
  });

  it('lists the sessions; a session shows each question, its supplement consumed, and the unfinished run marked', async () => {
    await page.getByRole('link', { name: 'Session', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /^Session / }).waitFor();
    await page.getByText('2 questions, 1 ended without a final answer.').waitFor();
    await page.getByText('consumed by this run').waitFor();
    await page.getByText('Stopped: someone ended the run.').waitFor();
    await checkPage('08-session');

    await page.getByRole('link', { name: 'All sessions' }).click();
    await page.getByRole('heading', { level: 1, name: /Sessions of Tide helper/ }).waitFor();
    await page
      .getByRole('link', { name: /^Continue session/ })
      .first()
      .waitFor();
    await expect(page.getByRole('link', { name: /^Continue session/ }).count()).resolves.toBe(1);
    await checkPage('09-sessions');

    await page.getByRole('link', { name: /^Continue session/ }).click();
    await page.getByText('Another slow one: the tides at Dover?').waitFor();
    await page.getByText('What you send now starts a new question').waitFor();
    await page.getByRole('link', { name: 'New conversation' }).click();
    await page.getByText('No question yet. Ask the agent something below.').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
