import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { callFrom, signInThroughPage } from './browser/console-api.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

/** Where the router pages' screenshots go (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/router/', import.meta.url));

const flightSlots = [
  {
    name: 'destination',
    type: 'category',
    required: true,
    prompts: ['Where do you want to fly to?'],
    allowedValues: [
      { value: 'paris', synonyms: ['巴黎'] },
      { value: 'tokyo', synonyms: ['东京'] },
    ],
  },
  {
    name: 'date',
    type: 'category',
    required: true,
    prompts: ['Which day do you want to fly?'],
    allowedValues: [
      { value: 'today', synonyms: ['今天'] },
      { value: 'tomorrow', synonyms: ['明天'] },
    ],
  },
];

/**
 * The router in real Chromium against the real `agentloom serve` (issue 33), with no embedded
 * worker so that a started run stays queued until the router stops it. The router is written in
 * its editor (an action per agent: target, description, keywords, examples, slots; cancel and
 * chit-chat keywords), tried in the "try it" panel (nothing runs), published, and then the chat
 * page holds the conversation: a two-turn slot filling starts the flight agent with both slots as
 * its input, a cancel stops that run, a greeting starts nothing. Screenshots in English and
 * Chinese; every page passes axe-core.
 */
describe.runIf(chromiumAvailable())('the router editor and chat in Chromium', { timeout: 180_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  const pageErrors: string[] = [];
  let spaceId = '';
  let flightId = '';
  let weatherId = '';
  let routerUrl = '';

  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }
  async function call<Result>(method: string, path: string, body?: unknown) {
    const answer = await callFrom<Result>(page, method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  }
  async function publishedAgent(connectionId: string, name: string): Promise<string> {
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name,
    });
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    const saved = await callFrom(
      page,
      'PUT',
      `/apps/${app.id}/draft`,
      { config: { model: { connectionId, modelId: 'demo-1' }, prompt: { text: `You are the ${name}.` } } },
      { 'if-match': `"${draft.revision}"` },
    );
    expect(saved.status).toBe(200);
    await call('POST', `/apps/${app.id}/releases`, { notes: 'first' });
    return app.id;
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory, { AGENTLOOM_EMBEDDED_WORKERS: '0' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en' });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInThroughPage(page, platform.url, platform.adminEmail, platform.adminPassword);
    ({
      space: { id: spaceId },
    } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Travel' }));
    const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${spaceId}/model-connections`, {
      name: 'Demo',
      provider: 'offline-demo',
      settings: { demoFallback: 'Done.' },
      models: [{ modelId: 'demo-1' }],
    });
    flightId = await publishedAgent(connection.id, 'Flight desk');
    weatherId = await publishedAgent(connection.id, 'Weather desk');
  }, 240_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    removeBuild();
  });

  /** Fills the action card `n` (1-based). */
  async function fillAction(n: number, target: string, fields: Record<string, string>) {
    const card = page.getByRole('group', { name: `Action ${n}` });
    await card.getByLabel('Starts').selectOption({ label: target });
    for (const [label, value] of Object.entries(fields)) await card.getByLabel(label, { exact: true }).fill(value);
  }

  it('writes the router in its editor, tries a message without running anything, and publishes it', async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/routers`);
    await page.getByRole('heading', { level: 1, name: 'Routers' }).waitFor();
    await page.getByLabel('Name').fill('Travel router');
    await page.getByRole('button', { name: 'Create router' }).click();
    await page.getByRole('heading', { level: 1, name: 'Router: Travel router' }).waitFor();
    routerUrl = page.url();
    await page.getByRole('button', { name: 'Add an action' }).click();
    await fillAction(1, 'Agent: Flight desk', {
      'What it does': 'Books a flight',
      'Keywords (one a line)': 'book a flight\n订机票',
      'Example utterances (one a line)': 'I need a plane ticket',
      'Slots (JSON list)': JSON.stringify(flightSlots, null, 2),
    });
    await page.getByRole('button', { name: 'Add an action' }).click();
    await fillAction(2, 'Agent: Weather desk', {
      'What it does': 'Tells the weather',
      'Keywords (one a line)': 'weather\n天气',
      'Example utterances (one a line)': 'will it rain',
    });
    await page.getByLabel('Cancel keywords (one a line)').fill('cancel\n取消');
    await page.getByLabel('Chit-chat keywords (one a line)').fill('hello\n你好');
    await page.getByLabel('Similarity threshold').fill('0.9');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The router is ready to publish.').waitFor();

    await page.getByLabel('Message to try').fill('book a flight to Paris');
    await page.getByRole('button', { name: 'Understand' }).click();
    const trial = page.getByRole('status').filter({ hasText: 'Decided by: the rules' });
    await trial.waitFor();
    await expect(trial.textContent()).resolves.toContain('start agent:Flight desk');
    await expect(trial.textContent()).resolves.toContain('destination = paris');
    await expect(trial.textContent()).resolves.toContain('Which day do you want to fly?');
    const runs = await call<{ runs: unknown[] }>('GET', `/apps/${flightId}/runs`);
    expect(runs.runs).toEqual([]);
    await checkPage('en-01-router-editor');

    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('fills a slot over two turns, starts the flight agent with both slots, cancels it, and chit-chat starts nothing', async () => {
    await page.goto(`${routerUrl}/chat`);
    await page.getByRole('heading', { level: 1, name: 'Chat with Travel router' }).waitFor();
    const say = async (text: string, turn: number) => {
      await page.getByLabel('Message', { exact: true }).fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
      const article = page.getByRole('article').nth(turn - 1);
      await article.waitFor();
      return article;
    };
    const first = await say('I want to book a flight to Paris', 1);
    await expect(first.locator('.router-reply').textContent()).resolves.toBe('Which day do you want to fly?');
    const second = await say('tomorrow', 2);
    await expect(second.locator('.router-reply').textContent()).resolves.toBe('Starting “Books a flight”.');
    await second.getByText('Run started').waitFor();
    const href = (await second.getByRole('link', { name: 'Open the run' }).getAttribute('href')) ?? '';
    expect(href).toContain(`/agents/${flightId}/runs/`);
    const runId = href.split('/').pop() ?? '';
    const { run } = await call<{ run: { status: string; sessionId: string } }>('GET', `/runs/${runId}`);
    expect(run.status).toBe('queued');
    const history = await call<{ runs: { input: string }[] }>('GET', `/sessions/${run.sessionId}/history`);
    expect(history.runs.map((entry) => entry.input)).toEqual([JSON.stringify({ destination: 'paris', date: 'tomorrow' })]);
    await second.getByText('How it was understood').click();
    await second.getByText('Decided by: the rules').waitFor();
    await checkPage('en-02-router-chat-started');

    const third = await say('cancel', 3);
    await expect(third.locator('.router-reply').textContent()).resolves.toBe('Cancelled.');
    await third.getByText('Run stopped').waitFor();
    const stopped = await call<{ run: { status: string } }>('GET', `/runs/${runId}`);
    expect(stopped.run.status).toBe('stopped');

    const fourth = await say('hello', 4);
    await expect(fourth.locator('.router-reply').textContent()).resolves.toBe('Hello! Tell me what you need.');
    await expect(fourth.getByRole('link', { name: 'Open the run' }).count()).resolves.toBe(0);
    const flightRuns = await call<{ runs: unknown[] }>('GET', `/apps/${flightId}/runs`);
    const weatherRuns = await call<{ runs: unknown[] }>('GET', `/apps/${weatherId}/runs`);
    expect([flightRuns.runs.length, weatherRuns.runs.length]).toEqual([1, 0]);
    await checkPage('en-03-router-chat');
    // The session is in the address and kept by the platform: a reload reads the conversation back.
    expect(page.url()).toContain('?session=rses_');
    await page.reload();
    await page.getByRole('article').nth(3).waitFor();
    await expect(page.getByRole('article').count()).resolves.toBe(4);
    await expect(page.getByRole('article').nth(1).locator('.router-reply').textContent()).resolves.toBe(
      'Starting “Books a flight”.',
    );
    expect(pageErrors).toEqual([]);
  });

  it('shows the router pages in Chinese', async () => {
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '与 Travel router 对话' }).waitFor();
    await page.getByRole('button', { name: '新对话' }).click();
    await page.getByText('还没有消息。在下面提出你的需求吧。').waitFor();
    await page.getByLabel('消息', { exact: true }).fill('帮我订机票去东京');
    await page.getByRole('button', { name: '发送' }).click();
    await page.getByText('Which day do you want to fly?').waitFor();
    await page.getByLabel('消息', { exact: true }).fill('你好');
    await page.getByRole('button', { name: '发送' }).click();
    await page.getByText('你好！告诉我你需要什么。').waitFor();
    await checkPage('zh-CN-01-router-chat');
    await page.goto(routerUrl);
    await page.getByRole('heading', { level: 1, name: '路由器：Travel router' }).waitFor();
    await checkPage('zh-CN-02-router-editor');
    expect(pageErrors).toEqual([]);
  });
});
