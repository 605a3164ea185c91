import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

/** Where each page's screenshot goes, per language (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/languages/', import.meta.url));

/**
 * The console in Simplified Chinese and in English, in real Chromium against the real
 * `agentloom serve` (issue 35 part 2). A browser whose language is zh-CN gets the Chinese console
 * with no choice made: sign-in (a refused password explained in Chinese, its code kept), the
 * spaces, the agents list, a chat with the offline demo agent, the run view, the run log and the
 * sessions (dates written the Chinese way). Then the switch in the top bar turns the same pages
 * English, and the choice survives a reload. Every page passes axe-core (no serious or critical
 * violation) in both languages; each is photographed in both, with a Chinese agent name, so the
 * CJK glyphs can be looked at (fonts-noto-cjk, installed by .ci/run).
 */
describe.runIf(chromiumAvailable())('the console in zh-CN and en', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  const pageErrors: string[] = [];
  let spaceUrl = '';
  let agentId = '';
  let runUrl = '';
  const agentName = '潮汐助手';

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
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
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

  it('signs in in Chinese: the browser language decides, a refused password is explained with its code', async () => {
    await page.goto(`${platform.url}/spaces`);
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('heading', { level: 1, name: '登录 AgentLoom' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('zh-CN');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('请输入你账号的邮箱地址。').waitFor();
    await page.getByLabel('邮箱').fill(platform.adminEmail);
    await page.getByLabel('密码').fill('not-the-password');
    await page.getByRole('button', { name: '登录' }).click();
    const alert = page.getByRole('alert').filter({ hasText: '邮箱或密码错误。' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('invalid-credentials');
    await checkPage('zh-CN-01-sign-in-refused');
    // The sign-in page has the language switch too (before anyone is signed in).
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Sign in to AgentLoom' }).waitFor();
    await checkPage('en-01-sign-in');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '登录 AgentLoom' }).waitFor();
    await page.getByLabel('密码').fill(platform.adminPassword);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('heading', { level: 1, name: '空间' }).waitFor();
    await expect(page.title()).resolves.toBe('空间 · AgentLoom');
    await checkPage('zh-CN-02-spaces');
  });

  it('lists the agents in Chinese, with a Chinese agent name rendered', async () => {
    const { space } = await call<{ space: { id: string } }>('POST', '/spaces', { name: '演示空间' });
    spaceUrl = `${platform.url}/spaces/${space.id}`;
    const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${space.id}/model-connections`, {
      name: '离线模型',
      provider: 'offline-demo',
      settings: { demoFallback: '离线回答：潮水每天涨落两次。' },
      models: [{ modelId: 'offline-demo-1' }],
    });
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${space.id}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: agentName,
      description: '回答关于潮汐的问题',
    });
    agentId = app.id;
    const { draft } = await call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: connection.id, modelId: 'offline-demo-1' },
          prompt: { text: 'You answer questions.' },
          capabilities: { builtIn: [], tools: [], skills: [] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    await call('POST', `/apps/${app.id}/releases`, { notes: '第一版' });
    await page.goto(`${spaceUrl}/agents`);
    await page.getByRole('heading', { level: 1, name: '智能体' }).waitFor();
    await page.getByRole('link', { name: agentName, exact: true }).waitFor();
    await page.getByRole('link', { name: `与 ${agentName} 对话` }).waitFor();
    await page.getByRole('heading', { level: 2, name: '新建智能体' }).waitFor();
    await page.getByRole('button', { name: '创建智能体' }).click();
    await page.getByText('请给智能体起个名字。').waitFor();
    await checkPage('zh-CN-03-agents');
  });

  it('chats in Chinese: asks, reads the answer and the run view, the run log and the sessions', async () => {
    await page.getByRole('link', { name: `与 ${agentName} 对话` }).click();
    await page.getByRole('heading', { level: 1, name: `与 ${agentName} 对话` }).waitFor();
    await page.getByText('还没有提问。在下面向智能体提个问题吧。').waitFor();
    await page.getByRole('textbox', { name: '消息' }).fill('潮水什么时候涨？');
    await page.getByRole('button', { name: '提问' }).click();
    await page.getByText('已作为新问题发送。').waitFor();
    await page.getByText('离线回答：潮水每天涨落两次。').waitFor();
    await page.locator('.turn-answer .badge', { hasText: '成功' }).waitFor();
    await page.getByText('运行已结束，事件流已关闭。').waitFor();
    await checkPage('zh-CN-04-chat');

    await page.getByRole('link', { name: '运行详情' }).click();
    await page.getByRole('heading', { level: 1, name: /^运行 / }).waitFor();
    runUrl = page.url();
    await page.getByText('已完成：智能体给出了回答。').waitFor();
    await page.getByText(/^共 \d+ 次/).waitFor();
    await checkPage('zh-CN-05-run-view');

    await page.getByRole('link', { name: '运行记录' }).click();
    await page.getByRole('heading', { level: 1, name: `${agentName} 的运行记录` }).waitFor();
    await page.getByRole('cell', { name: '已完成：智能体给出了回答。' }).waitFor();
    await checkPage('zh-CN-06-run-log');

    await page.goto(`${spaceUrl}/agents/${agentId}/sessions`);
    await page.getByRole('heading', { level: 1, name: `${agentName} 的会话` }).waitFor();
    // zh-CN writes a date as 2026年12月6日.
    await page
      .getByRole('cell', { name: /\d{4}年\d{1,2}月\d{1,2}日/ })
      .first()
      .waitFor();
    await checkPage('zh-CN-07-sessions');
  });

  it('edits and runs a workflow in Chinese: the canvas, the side panel, the settings and the run page', async () => {
    const spaceId = spaceUrl.split('/spaces/')[1] ?? '';
    const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, {
      kind: 'workflow',
      name: '潮汐工作流',
    });
    const text = { reducer: 'last-value', schema: { type: 'string' } };
    await call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          definition: {
            formatVersion: 1,
            kind: 'workflow',
            name: 'tides',
            state: { question: text, answer: text },
            nodes: [{ name: 'answer', kind: 'agent', agent: 'tides', input: 'question', output: 'answer' }],
            edges: [
              { from: 'START', to: 'answer' },
              { from: 'answer', to: 'END' },
            ],
            output: ['answer'],
          },
          bindings: { agents: { tides: { appId: agentId } }, tools: {}, mcpServers: {} },
          layout: { nodes: {} },
        },
      },
      { 'if-match': '"1"' },
    );
    await page.goto(`${spaceUrl}/workflows/${app.id}`);
    await page.getByRole('heading', { level: 1, name: '工作流：潮汐工作流' }).waitFor();
    await page.getByText('草稿修订 2').waitFor();
    await page.getByRole('heading', { level: 2, name: '添加节点' }).waitFor();
    await page.getByRole('heading', { level: 2, name: '状态' }).waitFor();
    await page.getByRole('tab', { name: '画布' }).waitFor();
    const node = page.locator('.react-flow__node[data-id="answer"]');
    await node.getByText('智能体').waitFor();
    await node.click();
    await page.getByRole('heading', { level: 2, name: '节点 answer' }).waitFor();
    await expect(page.getByLabel('输入来自').inputValue()).resolves.toBe('question');
    await page.getByRole('button', { name: '添加节点' }).click();
    await page.getByText('请给节点起个名字。').waitFor();
    await checkPage('zh-CN-08-workflow-editor');

    await call('POST', `/apps/${app.id}/releases`, {});
    await page.goto(`${spaceUrl}/workflows/${app.id}/run`);
    await page.getByRole('heading', { level: 1, name: '运行工作流：潮汐工作流' }).waitFor();
    await page.getByLabel('输入（由状态字段组成的 JSON 对象）').fill(JSON.stringify({ question: '潮水什么时候涨？' }));
    await page.getByRole('button', { name: '运行', exact: true }).click();
    await page.getByTestId('run-output').filter({ hasText: '离线回答：潮水每天涨落两次。' }).waitFor();
    await page.getByText('事件：运行已结束').waitFor();
    await page.locator('.react-flow__node[data-id="answer"]').getByText('成功').waitFor();
    await checkPage('zh-CN-09-workflow-run');
  });

  it('switches to English from the top bar, keeps the choice on reload, and passes axe in English too', async () => {
    await page.goto(runUrl);
    await page.getByRole('heading', { level: 1, name: /^运行 / }).waitFor();
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('en');
    await page.getByText('Finished: the agent answered.').waitFor();
    await checkPage('en-05-run-view');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Run / }).waitFor();

    await page.goto(`${spaceUrl}/agents`);
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.getByRole('link', { name: `Chat with ${agentName}` }).waitFor();
    await checkPage('en-03-agents');
    await page.getByRole('link', { name: `Chat with ${agentName}` }).click();
    await page.getByRole('heading', { level: 1, name: `Chat with ${agentName}` }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('When does the tide turn?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByText('离线回答：潮水每天涨落两次。').waitFor();
    await page.locator('.turn-answer .badge', { hasText: 'succeeded' }).waitFor();
    await checkPage('en-04-chat');
    await page.goto(`${spaceUrl}/agents/${agentId}/runs`);
    await page.getByRole('heading', { level: 1, name: `Run log of ${agentName}` }).waitFor();
    await checkPage('en-06-run-log');

    // Back to Chinese for the next visit of this browser.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: `${agentName} 的运行记录` }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
