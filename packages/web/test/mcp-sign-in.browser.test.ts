import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ProtectedMcpServer, startProtectedMcpServer } from '../../platform/test/oauth-mcp-server.js';
import { ToolCallingModelServer } from '../../platform/test/tool-calling-model.js';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/mcp-sign-in/', import.meta.url));

/**
 * MCP sign-in from the console (issue 32) in real Chromium against the real `agentloom serve`
 * and an OAuth-protected MCP server on 127.0.0.1 whose authorization server is the MCP SDK's own
 * (metadata discovery, dynamic registration, a PKCE-checking token endpoint): an MCP server added
 * with "needs an OAuth sign-in", "Connect" sends the browser to the authorization server, which
 * sends it back through the platform's callback to the page, now connected; an agent using the
 * server's tool then runs and finishes with the tool's answer. The page in zh-CN too.
 */
describe.runIf(chromiumAvailable())('MCP sign-in from the console in Chromium', { timeout: 150_000 }, () => {
  let session: ConsoleSession;
  let protectedServer: ProtectedMcpServer;
  let model: ToolCallingModelServer;
  let spaceId = '';

  beforeAll(async () => {
    protectedServer = await startProtectedMcpServer();
    model = await new ToolCallingModelServer().start();
    session = await openConsoleSession({ screenshotDirectory });
    spaceId = (await session.call<{ space: { id: string } }>('POST', '/spaces', { name: 'Sign-in' })).space.id;
  }, 180_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await session.page.screenshot({ path: `${screenshotDirectory}failed-${test.task.name.slice(0, 24)}.png`, fullPage: true });
  });

  afterAll(async () => {
    await session?.close();
    await protectedServer?.close();
    await model?.close();
  });

  it('connects an OAuth-protected MCP server through the browser, and a run uses its tool', async () => {
    const { page } = session;
    await page.goto(`${session.platform.url}/spaces/${spaceId}/mcp-servers`);
    await page.getByRole('heading', { level: 1, name: 'MCP servers' }).waitFor();
    const creating = page.getByRole('region', { name: 'New MCP server' });
    await creating.getByLabel('Name').fill('protected');
    await creating.getByLabel('Server URL (streamable HTTP)').fill(protectedServer.url);
    await creating.getByLabel('The server needs an OAuth sign-in').check();
    await session.checkPage('01-new-with-oauth');
    await creating.getByRole('button', { name: 'Create MCP server' }).click();
    await page.getByRole('button', { name: 'protected' }).click();
    const signIn = page.getByRole('region', { name: 'Sign-in (OAuth)' });
    await signIn.getByText('Not connected: runs cannot use this server until someone signs in.').waitFor();
    await session.checkPage('02-not-connected');

    // Connect: to the authorization server and back through the platform's callback.
    await signIn.getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(/signIn=connected/);
    await page.getByText('Signed in: the server is connected for this space.').waitFor();
    await page.getByText(/^Connected: runs of this space use the server\. The access token lapses/).waitFor();
    expect(protectedServer.counts.registrations).toBe(1);
    expect(protectedServer.counts.codeExchanges).toBe(1);
    await session.checkPage('03-connected');

    // A run of an agent that uses the server's tool finishes with the tool's answer.
    const servers = await session.call<{ resources: { id: string }[] }>('GET', `/spaces/${spaceId}/resources?type=mcp-server`);
    const connection = await session.call<{ connection: { id: string } }>('POST', `/spaces/${spaceId}/model-connections`, {
      name: 'Scripted',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-scripted-key-0123456789' },
      models: [{ modelId: 'scripted' }],
    });
    const { app } = await session.call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, {
      kind: 'agent',
      mode: 'react',
      name: 'Signed-in agent',
    });
    const { draft } = await session.call<{ draft: { revision: number } }>('GET', `/apps/${app.id}/draft`);
    await session.call(
      'PUT',
      `/apps/${app.id}/draft`,
      {
        config: {
          model: { connectionId: connection.connection.id, modelId: 'scripted' },
          prompt: { text: 'Say who you are.' },
          capabilities: { mcpServers: [servers.resources[0]?.id] },
        },
      },
      { 'if-match': `"${draft.revision}"` },
    );
    await session.call('POST', `/apps/${app.id}/releases`, { notes: 'signed in' });
    const finished = await session.call<{ run: { status: string; output: unknown } }>('POST', `/apps/${app.id}/runs?wait=60`, {
      input: 'call protected__whoami {}',
      mode: 'blocking',
    });
    expect(finished.run.status).toBe('succeeded');
    expect(String(finished.run.output)).toMatch(/^answer: client=\S+ scopes=mcp:tools$/);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    await page.getByRole('heading', { level: 3, name: '登录（OAuth）' }).waitFor();
    await session.checkPage('04-zh-CN-connected');
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    expect(session.pageErrors).toEqual([]);
  });
});
