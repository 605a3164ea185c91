import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

const screenshotDirectory = fileURLToPath(new URL('../test-results/demo-space/', import.meta.url));

/**
 * The offline demo (issue 35) as a newcomer sees it, in real Chromium against the real
 * `agentloom serve` on a fresh database (the Demo space seeded, no vendor key, the default egress
 * policy): each demo app runs from its page with the question it suggests and shows its defining
 * behaviour — the assistant's tool calls; the planner's parallel executor batch, joined; the
 * workflow's nodes lighting up and finishing, with a person's answer; the team's turns — and
 * "Crash the worker" SIGKILLs the worker process mid-run: the page shows the takeover and the
 * same run finishes with no saved step redone. The lease is shortened so the takeover comes soon.
 */
describe.runIf(chromiumAvailable())('the Demo space in Chromium', { timeout: 180_000 }, () => {
  let session: ConsoleSession;
  let page: Page;
  let spaceId = '';
  const apps = new Map<string, string>();
  const call = <Result>(method: string, path: string, body?: unknown) => session.call<Result>(method, path, body);

  beforeAll(async () => {
    session = await openConsoleSession({
      screenshotDirectory,
      environment: { AGENTLOOM_SEED_DEMO: 'true', AGENTLOOM_OUTBOUND_ALLOW: '', AGENTLOOM_RUN_LEASE_MS: '3000' },
    });
    page = session.page;
    const { spaces } = await call<{ spaces: { id: string; name: string }[] }>('GET', '/spaces');
    spaceId = spaces.find((space) => space.name === 'Demo')?.id ?? '';
    const listed = await call<{ apps: { id: string; name: string }[] }>('GET', `/spaces/${spaceId}/apps`);
    for (const app of listed.apps) apps.set(app.name, app.id);
  }, 240_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${context.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
  });

  /**
   * The run's events as the API streams them, read until its `run-finish` message is whole (a
   * chunk may end inside a message, even between its `event:` and `data:` lines; one decoder in
   * streaming mode, so a character split across two chunks is not broken either).
   */
  const eventsOf = (runId: string) =>
    page.evaluate(async (id) => {
      const controller = new AbortController();
      const response = await fetch(`/api/v1/runs/${id}/events`, { signal: controller.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const finished = () => {
        const at = text.indexOf('event: run-finish');
        return at >= 0 && text.indexOf('\n\n', at) >= 0;
      };
      while (!finished()) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      controller.abort();
      return text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as { type: string; toolName?: string; role?: string });
    }, runId);

  const latestRun = async (appId: string) => {
    const { runs } = await call<{ runs: { id: string }[] }>('GET', `/apps/${appId}/runs`);
    return runs[0]?.id ?? '';
  };

  it('the assistant calls its tools; "Crash the worker" mid-run; a fresh worker finishes the same run, no saved step redone', async () => {
    const appId = apps.get('Demo assistant') ?? '';
    await page.goto(`${session.platform.url}/spaces/${spaceId}/agents/${appId}/chat`);
    await page.getByTestId('suggested-question').click();
    const tools = page.locator('.live-progress li');
    // The first tool call is saved; the model thinks for seconds before its answer: crash the worker mid-run.
    await tools.filter({ hasText: 'write_file' }).filter({ hasText: 'succeeded' }).waitFor();
    await page.getByTestId('demo-crash').getByRole('button', { name: 'Crash the worker' }).click();
    await page.getByTestId('demo-crash-killed').waitFor();
    const runId = await latestRun(appId);
    await session.checkPage('01-assistant-worker-killed');
    await page.getByTestId('demo-crash-takeover').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('demo-crash-takeover').textContent()).toContain(runId);
    await page
      .locator('.transcript')
      .getByText(/\[Scripted demo\] I wrote the question/)
      .waitFor({ timeout: 60_000 });
    await session.checkPage('02-assistant-taken-over');
    const events = await eventsOf(runId);
    const finished = events.filter((event) => event.type === 'tool-call-finish').map((event) => event.toolName);
    expect(finished).toEqual(['write_file', 'demo_lookup']);
    expect(events.at(-1)?.type).toBe('run-finish');
    expect(session.pageErrors).toEqual([]);
  });

  it('the planner runs its two executors in one parallel batch and joins them', async () => {
    const appId = apps.get('Demo planner') ?? '';
    await page.goto(`${session.platform.url}/spaces/${spaceId}/agents/${appId}/chat`);
    await page.getByTestId('suggested-question').click();
    await page
      .locator('.transcript')
      .getByText(/Both executors answered/)
      .waitFor({ timeout: 60_000 });
    const executors = page.locator('.live-progress li');
    // Each role shows as a delegation among the tool calls and as an executor task.
    expect(await executors.filter({ hasText: 'researcher' }).count()).toBeGreaterThanOrEqual(1);
    expect(await executors.filter({ hasText: 'critic' }).count()).toBeGreaterThanOrEqual(1);
    await session.checkPage('03-planner');
    const events = await eventsOf(await latestRun(appId));
    const starts = events.flatMap((event, index) => (event.type === 'task-start' ? [index] : []));
    const firstFinish = events.findIndex((event) => event.type === 'task-finish');
    expect(starts).toHaveLength(2);
    expect(starts.every((index) => index < firstFinish)).toBe(true);
    expect(events.some((event) => event.type === 'batch-join')).toBe(true);
  });

  it('the workflow lights its nodes up on the canvas, asks a person, and finishes', async () => {
    const appId = apps.get('Demo workflow') ?? '';
    await page.goto(`${session.platform.url}/spaces/${spaceId}/workflows/${appId}/run`);
    await page.getByTestId('suggested-question').click();
    await page.waitForURL(/\/runs\/run_/);
    await page.locator('.flow-node[data-status="interrupted"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('.flow-node[data-status="succeeded"]').count()).toBe(3);
    await session.checkPage('04-workflow-waiting');
    await page.getByRole('button', { name: 'yes', exact: true }).click();
    const output = page.getByTestId('run-output');
    await output.waitFor();
    expect(JSON.parse((await output.textContent()) ?? '{}')).toMatchObject({ decision: 'yes' });
    expect(await page.locator('.flow-node[data-status="succeeded"]').count()).toBe(4);
    await session.checkPage('05-workflow-finished');
  });

  it('the team workflow lets the writer and the reviewer take turns', async () => {
    const appId = apps.get('Demo team') ?? '';
    await page.goto(`${session.platform.url}/spaces/${spaceId}/workflows/${appId}/run`);
    await page.getByTestId('suggested-question').click();
    const output = page.getByTestId('run-output');
    await output.waitFor({ timeout: 60_000 });
    expect(await output.textContent()).toMatch(/Writer:|Reviewer:/);
    await session.checkPage('06-team');
  });

  it('"Crash the worker" in Chinese on a phone: the card fits a 412 px screen and tells the takeover in Chinese', async () => {
    const appId = apps.get('Demo assistant') ?? '';
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto(`${session.platform.url}/spaces/${spaceId}/agents/${appId}/chat`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: /对话/ }).waitFor();
    await page.getByTestId('suggested-question').click();
    const card = page.getByTestId('demo-crash');
    await card.getByRole('heading', { name: '让工作进程崩溃' }).waitFor();
    // Crash once the run has an owner (the model thinks for seconds before its answer).
    await card.getByText(/运行 run_\S+ 由 \S+ 持有/).waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: '让工作进程崩溃' }).click();
    await page.getByTestId('demo-crash-killed').waitFor();
    const runId = await latestRun(appId);
    // Nothing runs off the screen: the run and worker ids wrap inside the card.
    const overflow = () =>
      page.evaluate(() => {
        const box = document.querySelector<HTMLElement>('[data-testid="demo-crash"]');
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          card: box ? box.scrollWidth - box.clientWidth : 0,
        };
      });
    await expect(overflow()).resolves.toEqual({ page: 0, card: 0 });
    await session.checkPage('07-zh-CN-crash-worker-killed');
    const takeover = page.getByTestId('demo-crash-takeover');
    await takeover.waitFor({ timeout: 60_000 });
    await expect(takeover.textContent()).resolves.toMatch(new RegExp(`^已接管：同一个运行 ${runId} 现由 `));
    await expect
      .poll(async () => (await call<{ run: { status: string } }>('GET', `/runs/${runId}`)).run.status, { timeout: 60_000 })
      .toBe('succeeded');
    await card.getByRole('button', { name: '让工作进程崩溃' }).and(page.locator(':disabled')).waitFor();
    await expect(overflow()).resolves.toEqual({ page: 0, card: 0 });
    await session.checkPage('08-zh-CN-crash-taken-over');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    expect(session.pageErrors).toEqual([]);
  });
});
