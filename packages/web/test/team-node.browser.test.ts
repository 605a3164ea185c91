import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './browser/chromium.js';
import { type ConsoleSession, openConsoleSession } from './browser/console-session.js';
import type { RunningPlatform } from './browser/platform-server.js';

/** Where each step's screenshot goes (git-ignored). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/team-node/', import.meta.url));

/**
 * The team node in real Chromium against the real `agentloom serve` (fresh SQLite data directory,
 * issue 31 part 7): two published agent apps on the offline demo model; a workflow built on the
 * canvas whose one node is a team (group chat, both apps as members, max turns, token budget,
 * task and answer fields), saved, checked, published and run from its page; the run page shows
 * the team's turns, who owns the answer and how it ended. Then a workflow from the team template
 * opens on the canvas with its handoff team bound to the two apps. Every step passes axe-core.
 */
describe.runIf(chromiumAvailable())('the team node in Chromium', { timeout: 180_000 }, () => {
  let session: ConsoleSession;
  let page: Page;
  let platform: RunningPlatform;
  let spaceId = '';
  const call = <Result>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    session.call<Result>(method, path, body, headers);
  const checkPage = (name: string) => session.checkPage(name);

  beforeAll(async () => {
    session = await openConsoleSession({ screenshotDirectory, viewport: { width: 1400, height: 1000 } });
    ({ page, platform } = session);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  const node = (name: string) => page.locator(`.react-flow__node[data-id="${name}"]`);
  const panel = () => page.locator('.flow-side');

  it('sets up a space with two published agent apps on the offline demo model (through the API)', async () => {
    ({
      space: { id: spaceId },
    } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Teams' }));
    const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${spaceId}/model-connections`, {
      name: 'Offline demo',
      provider: 'offline-demo',
      settings: {
        demoReplies: [
          { whenInputContains: 'review', reply: 'Critic: the draft is clear; ship it.' },
          { whenInputContains: 'tides', reply: 'Writer: tides follow the moon. Please review.' },
        ],
        demoFallback: 'Nothing to add.',
      },
      models: [{ modelId: 'offline-demo-1' }],
    });
    for (const [name, prompt] of [
      ['writer', 'You write short explanations.'],
      ['critic', 'You review what the writer wrote.'],
    ] as const) {
      const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, {
        kind: 'agent',
        mode: 'react',
        name,
      });
      const config = {
        model: { connectionId: connection.id, modelId: 'offline-demo-1' },
        prompt: { text: prompt },
        capabilities: { builtIn: [], tools: [], skills: [] },
      };
      await call('PUT', `/apps/${app.id}/draft`, { config }, { 'if-match': '"1"' });
      await call('POST', `/apps/${app.id}/releases`, {});
    }
  });

  it('builds a team node on the canvas, publishes the workflow and runs it: the run page shows the turns and the owner', async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/workflows`);
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('team-flow');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow: team-flow' }).waitFor();
    await node('START').waitFor();
    for (const field of ['question', 'answer']) {
      await page.getByLabel('State field name').fill(field);
      await page.getByLabel('Reducer').selectOption('last-value');
      await page.getByLabel('Type', { exact: true }).selectOption('string');
      await page.getByRole('button', { name: 'Add state field' }).click();
    }
    await page.getByLabel('Workflow output (comma-separated state fields)').fill('answer');

    const addNode = page.locator('form[aria-labelledby="add-node-heading"]');
    await addNode.getByLabel('Node kind').selectOption('team');
    await addNode.getByLabel('Node name').fill('pair');
    await addNode.getByLabel('Topology').selectOption('group-chat');
    await addNode.getByRole('button', { name: 'Add node' }).click();
    await node('pair').waitFor();
    await panel().getByRole('heading', { name: 'Node pair' }).waitFor();
    const fields = panel().getByTestId('team-fields');
    await fields.getByRole('checkbox', { name: 'writer' }).check();
    await fields.getByRole('checkbox', { name: 'writer (1st)' }).waitFor();
    await fields.getByRole('checkbox', { name: 'critic' }).check();
    await fields.getByRole('checkbox', { name: 'critic (2nd)' }).waitFor();
    await fields.getByLabel('Max turns').fill('3');
    await fields.getByLabel('Token budget').fill('100000');
    await fields.getByLabel('Task from state field').selectOption('question');
    await fields.getByLabel('Answer to state field').selectOption('answer');
    await node('pair').getByText('group-chat · 2 members').waitFor();
    await checkPage('01-team-node-panel');

    for (const [from, to] of [
      ['START', 'pair'],
      ['pair', 'END'],
    ] as const) {
      await node(from).click();
      await panel().getByLabel(`Connect ${from} to`).selectOption(to);
      await panel().getByRole('button', { name: 'Add edge' }).click();
      await page.locator(`.react-flow__edge[data-id$="-${from}"]`).first().waitFor({ state: 'attached' });
    }
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The workflow is ready to publish.').waitFor();
    const workflowId = page.url().split('/').at(-1) ?? '';
    const { draft } = await call<{ draft: { config: { bindings: { teams: Record<string, unknown> } } } }>(
      'GET',
      `/apps/${workflowId}/draft`,
    );
    expect(draft.config.bindings.teams.pair).toMatchObject({
      topology: { kind: 'group-chat' },
      members: [{ name: 'writer' }, { name: 'critic' }],
      maxTurns: 3,
      budget: { maxTokens: 100000 },
    });
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Release notes').fill('A team on the canvas.');
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
    await checkPage('02-published');

    await page.goto(`${platform.url}/spaces/${spaceId}/workflows/${workflowId}`);
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Run workflow: team-flow' }).waitFor();
    await page.getByLabel('Input (JSON object of state fields)').fill(JSON.stringify({ question: 'Explain the tides.' }));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const output = page.getByTestId('run-output');
    await output.waitFor({ timeout: 60_000 });
    expect(JSON.parse((await output.textContent()) ?? '')).toEqual({ answer: 'Nothing to add.' });
    const team = page.locator('[data-team="pair"]');
    await team.getByTestId('team-stop').waitFor();
    expect(
      await team.locator('[data-testid="team-turns"] > li').evaluateAll((items) => items.map((item) => item.dataset.speaker)),
    ).toEqual(['writer', 'critic', 'writer']);
    await team.getByText('Critic: the draft is clear; ship it.').waitFor();
    expect(await team.getByTestId('team-owner').textContent()).toBe('Owns the answer: writer');
    expect(await team.getByTestId('team-stop').textContent()).toBe('Ended after 3 turns: max-turns');
    expect(await node('pair').locator('.flow-node').getAttribute('data-status')).toBe('succeeded');
    await checkPage('03-team-run');
  });

  it('creates a workflow from the team template: a handoff team of the space’s agent apps on the canvas', async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/workflows`);
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    await checkPage('04-template-offered');
    await page.getByRole('button', { name: 'New team workflow from template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow: Support team' }).waitFor();
    await node('support').getByText('handoff · 2 members').waitFor();
    await node('support').click();
    const fields = panel().getByTestId('team-fields');
    expect(await fields.getByLabel('Topology').inputValue()).toBe('handoff');
    expect(await fields.getByRole('checkbox', { name: 'writer' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The workflow is ready to publish.').waitFor();
    await checkPage('05-team-template');
    expect(session.pageErrors).toEqual([]);
  });
});
