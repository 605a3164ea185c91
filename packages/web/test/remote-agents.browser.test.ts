import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RemoteAgentServer, startRemoteAgentServer } from '../../platform/test/a2a-remote-agent-server.js';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/remote-agents/', import.meta.url));
const token = 'remote-browser-token-93ad';

/**
 * The remote agents page (issue 32) in real Chromium against the real `agentloom serve` and a
 * remote agent served by the official `@a2a-js/sdk` server that demands a bearer token: bad input
 * refused at its fields, a literal credential refused by the server at its field, the agent added
 * with its token as a space secret, its card read through the platform (egress module) and shown;
 * the same page in zh-CN. Every step passes axe-core.
 */
describe.runIf(chromiumAvailable())('remote agents page in Chromium', { timeout: 120_000 }, () => {
  let session: ConsoleSession;
  let remote: RemoteAgentServer;
  let spaceUrl = '';

  beforeAll(async () => {
    remote = await startRemoteAgentServer({ bearer: token });
    session = await openConsoleSession({ screenshotDirectory });
    const created = await session.call<{ space: { id: string } }>('POST', '/spaces', { name: 'Remote' });
    await session.call('POST', `/spaces/${created.space.id}/secrets`, { name: 'REMOTE_TOKEN', value: `Bearer ${token}` });
    spaceUrl = `${session.platform.url}/spaces/${created.space.id}`;
  }, 180_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await session.page.screenshot({ path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
    await remote?.close();
  });

  it('adds a remote agent with a secret header and shows its card', async () => {
    const { page } = session;
    await page.goto(`${spaceUrl}/remote-agents`);
    await page.getByRole('heading', { level: 1, name: 'Remote agents' }).waitFor();
    await page.getByText('No remote agents yet.').waitFor();
    await session.checkPage('01-empty');

    const creating = page.getByRole('region', { name: 'New remote agent' });
    await creating.getByLabel('Name').fill('has spaces');
    await creating.getByLabel('Agent Card URL').fill('not a url');
    await creating.getByRole('button', { name: 'Add remote agent' }).click();
    await expect(creating.getByLabel('Agent Card URL').getAttribute('aria-invalid')).resolves.toBe('true');
    await creating.getByText('Say when the model should delegate to it.').waitFor();
    await session.checkPage('02-refused-in-page');

    // A literal credential is refused by the server, at its field.
    await creating.getByLabel('Name').fill('researcher');
    await creating.getByLabel('Agent Card URL').fill(remote.cardUrl);
    await creating.getByLabel('When to delegate to it').fill('Research questions.');
    await creating.getByLabel('Headers (JSON)').fill('{"Authorization": "Bearer literal"}');
    await creating.getByRole('button', { name: 'Add remote agent' }).click();
    await creating.getByText(/literal credentials are not stored/).waitFor();
    await session.checkPage('03-literal-refused');

    await creating.getByLabel('Headers (JSON)').fill('{"Authorization": {"secret": "REMOTE_TOKEN"}}');
    await creating.getByRole('button', { name: 'Add remote agent' }).click();
    await page.getByRole('button', { name: 'researcher' }).click();
    const panel = page.getByRole('region', { name: 'researcher — version 1' });
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Read its card' }).click();
    const card = panel.getByRole('region', { name: 'Card: Remote researcher' });
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('/a2a/jsonrpc');
    await expect(card.getByRole('table').textContent()).resolves.toContain('Answers a research question.');
    expect(remote.authorizations.at(-1)).toBe(`Bearer ${token}`);
    await session.checkPage('04-card');

    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '远程智能体' }).waitFor();
    await page.getByRole('button', { name: 'researcher' }).click();
    await page.getByRole('button', { name: '读取 Agent Card' }).click();
    await page.getByRole('heading', { name: 'Agent Card：Remote researcher' }).waitFor();
    await session.checkPage('05-zh-CN-card');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    expect(session.pageErrors).toEqual([]);
  });
});
