import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestServer } from '../../platform/test/mcp-test-server.js';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/mcp-servers/', import.meta.url));

/** A local URL on which nothing listens (a port taken and released again). */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

/**
 * The MCP servers page in real Chromium against the real `agentloom serve` (fresh SQLite data
 * directory) and a real streamable-HTTP MCP server: a bad URL refused at its field, a server
 * added, "Test: list tools" showing the server's tools, a new version pointing nowhere and its
 * test's typed error shown at the form. Every step passes axe-core (no serious violation).
 */
describe.runIf(chromiumAvailable())('MCP servers page in Chromium', { timeout: 120_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  const mcp = new McpTestServer();
  const pageErrors: string[] = [];
  let spaceUrl = '';

  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    await mcp.start();
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${platform.url}/sign-in`);
    await page.getByLabel('Email').fill(platform.adminEmail);
    await page.getByLabel('Password').fill(platform.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/v1/spaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': localStorage.getItem('agentloom.csrf-token') ?? '' },
        body: JSON.stringify({ name: 'MCP' }),
      });
      return (await response.json()) as { space: { id: string } };
    });
    spaceUrl = `${platform.url}/spaces/${created.space.id}`;
  }, 180_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await page.screenshot({ path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await mcp.close();
    removeBuild();
  });

  it('adds a server, lists its tools with the test call, and shows a failed test’s error at the form', async () => {
    await page.goto(`${spaceUrl}/mcp-servers`);
    await page.getByRole('heading', { level: 1, name: 'MCP servers' }).waitFor();
    await page.getByText('No MCP server yet.').waitFor();
    await checkPage('01-empty');

    // Bad input is refused at its field, before anything is sent.
    const creating = page.getByRole('region', { name: 'New MCP server' });
    await creating.getByLabel('Name').fill('Team notes');
    await creating.getByLabel('Server URL (streamable HTTP)').fill('not a url');
    await creating.getByLabel('Headers').fill('{"Authorization": ');
    await creating.getByRole('button', { name: 'Create MCP server' }).click();
    await expect(creating.getByLabel('Server URL (streamable HTTP)').getAttribute('aria-invalid')).resolves.toBe('true');
    await creating.getByText(/^Not valid JSON/).waitFor();
    await checkPage('02-refused');

    await creating.getByLabel('Server URL (streamable HTTP)').fill(mcp.url);
    await creating.getByLabel('Headers').fill('{}');
    await creating.getByRole('button', { name: 'Create MCP server' }).click();
    await page.getByRole('button', { name: 'Team notes' }).click();
    const server = page.getByRole('region', { name: 'Team notes (version 1)' });
    await server.waitFor();
    await server.getByRole('button', { name: 'Test: list tools' }).click();
    const tools = server.getByRole('table', { name: /2 tools of Team-notes/ });
    await tools.waitFor();
    await expect(tools.getByRole('row').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Tool'),
      expect.stringMatching(/add\s+Team-notes__add\s+Adds two numbers\./),
      expect.stringMatching(/search_notes\s+Team-notes__search_notes\s+Finds the team notes about a topic\./),
    ]);
    expect(mcp.sessions.size).toBe(0);
    await checkPage('03-tools-listed');

    // A new version that points nowhere: its test's typed error stands at the form.
    await server.getByLabel('Server URL (streamable HTTP)').fill(await closedUrl());
    await server.getByRole('button', { name: 'Save as a new version' }).click();
    const second = page.getByRole('region', { name: 'Team notes (version 2)' });
    await second.waitFor();
    await second.getByRole('button', { name: 'Test: list tools' }).click();
    const failure = second.getByRole('alert').filter({ hasText: 'The test call failed.' });
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toContain('(mcp-unreachable)');
    await expect(page.getByRole('table', { name: /tools of/ }).count()).resolves.toBe(0);
    await checkPage('04-test-failed');
    expect(pageErrors).toEqual([]);
  });
});
