import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { offlineModel } from '../../../examples/workflow/src/offline-model.js';
import { createReportTools } from '../../../examples/workflow/src/report-workflow.js';
import { type ExampleOutcome, runExampleInProcess, stepsOf } from '../../platform/test/example-outcome.js';
import { LanguageModelServer, ToolServer } from '../../platform/test/example-servers.js';
import { McpTestServer } from '../../platform/test/mcp-test-server.js';
import { exampleDocumentsDirectory } from '../../platform/test/workflow-fixture.js';
import { chromiumAvailable, describeViolations, launchChromium, seriousAccessibilityViolations } from './browser/chromium.js';
import { buildConsole, type RunningPlatform, startPlatform } from './browser/platform-server.js';

/** Where each step's screenshot goes (git-ignored; README images are copied from here by hand). */
const screenshotDirectory = fileURLToPath(new URL('../test-results/workflow-canvas/', import.meta.url));
/** The seeds' example workflow (P-7.5), with its inline agents. */
const examplePath = fileURLToPath(new URL('../../../examples/workflow/definitions/market-report.json', import.meta.url));
const example = JSON.parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown> & {
  agents: Record<string, Record<string, unknown>>;
};
/** The example as a platform workflow calls it: published agent apps stand for its inline agents. */
const { agents: exampleAgents, ...bareDefinition } = example;
/** The example with its "MCP query" (P-7.5): the query node calls search_documents on the space's "Documents" MCP server. */
const exampleDefinition: Record<string, unknown> = {
  ...bareDefinition,
  nodes: (bareDefinition.nodes as { name: string }[]).map((item) =>
    item.name === 'query' ? { ...item, server: 'documents' } : item,
  ),
};

interface Node {
  name: string;
  [field: string]: unknown;
}

/**
 * The workflow editor in real Chromium against the real `agentloom serve` (fresh SQLite data
 * directory): the seeds' example (P-7.5) built on the canvas — state, nodes bound to agent apps,
 * HTTP tools and an MCP server's tool (its query, listed from a real MCP server; an unreachable
 * server's error shown at the tool field), edges, a join, input and output mapping — saved; its problems (an unpublished
 * agent, an unreachable node) written on the nodes they concern, fixed, published; then the
 * example's JSON imported into a second workflow, shown on the canvas, edited through the JSON
 * view and exported back equal. The workflow built on the canvas is then run from its page with
 * the example's own offline model (served as an OpenAI-compatible server) and tools (served as
 * custom HTTP tools, the query's by the MCP server, which must receive the call): each node's status shows on the canvas as the run goes, an agent node drills
 * into its inner run, and the output the page shows equals what `examples/workflow` produces in
 * process. Every step passes axe-core with no serious violation.
 */
describe.runIf(chromiumAvailable())('the workflow canvas in Chromium', { timeout: 180_000 }, () => {
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let removeBuild: () => void = () => {};
  let spaceId = '';
  const agentApps: Record<string, string> = {};
  const pageErrors: string[] = [];
  // Where the platform's run saves its report (through the tool server) and where the example's own run does.
  const outputDirectory = mkdtempSync(join(tmpdir(), 'agentloom-canvas-run-'));
  const exampleOutputDirectory = mkdtempSync(join(tmpdir(), 'agentloom-canvas-example-'));
  const reportTools = Object.values(createReportTools({ documentsDirectory: exampleDocumentsDirectory, outputDirectory }));
  let model: LanguageModelServer;
  let toolServer: ToolServer;
  let mcpServer: McpTestServer;
  const importDirectory = mkdtempSync(join(tmpdir(), 'agentloom-canvas-import-'));
  let expected: ExampleOutcome;
  let workflowId = '';
  let documentsServerId = '';

  beforeAll(async () => {
    mkdirSync(screenshotDirectory, { recursive: true });
    expected = await runExampleInProcess(exampleOutputDirectory);
    model = await new LanguageModelServer(offlineModel()).start();
    toolServer = await new ToolServer(reportTools).start();
    mcpServer = await new McpTestServer(
      undefined,
      reportTools.filter((item) => item.name === 'search_documents'),
    ).start();
    const built = await buildConsole();
    removeBuild = built.remove;
    platform = await startPlatform(built.directory);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await model?.close();
    await toolServer?.close();
    await mcpServer?.close();
    removeBuild();
    for (const directory of [outputDirectory, exampleOutputDirectory, importDirectory])
      rmSync(directory, { recursive: true, force: true });
  });

  async function checkPage(name: string): Promise<void> {
    await page.screenshot({ path: `${screenshotDirectory}${name}.png`, fullPage: true });
    const violations = await seriousAccessibilityViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  /** Calls the API from inside the page, as the console would (cookie session + CSRF token). */
  async function call<Result>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await page.evaluate(
      async ({ method, path, body, headers }) => {
        const all: Record<string, string> = { 'content-type': 'application/json', ...headers };
        const token = localStorage.getItem('agentloom.csrf-token');
        if (token) all['x-csrf-token'] = token;
        const result = await fetch(`/api/v1${path}`, {
          method,
          headers: all,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: result.status, body: await result.json() };
      },
      { method, path, body, headers },
    );
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return response.body as Result;
  }

  const node = (name: string) => page.locator(`.react-flow__node[data-id="${name}"]`);
  const panel = () => page.locator('.flow-side');
  /** Presses the mouse on `from`, moves it in steps to `to` and releases it (a user's drag on the canvas). */
  async function dragBetween(from: Locator, to: Locator): Promise<void> {
    const start = await from.boundingBox();
    const end = await to.boundingBox();
    if (!start || !end) throw new Error('not on screen');
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  it('sets up a space with the agent apps and tools the example calls (through the API)', async () => {
    await page.goto(`${platform.url}/sign-in`);
    await page.getByLabel('Email').fill(platform.adminEmail);
    await page.getByLabel('Password').fill(platform.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Spaces' }).waitFor();
    ({
      space: { id: spaceId },
    } = await call<{ space: { id: string } }>('POST', '/spaces', { name: 'Reports' }));
    // The example's own offline model and tools, served over HTTP, so that a run reproduces the example's.
    const { connection } = await call<{ connection: { id: string } }>('POST', `/spaces/${spaceId}/model-connections`, {
      name: 'Example model',
      provider: 'openai-compatible',
      baseUrl: `${model.url}/v1`,
      key: { label: 'main', value: 'sk-example-key-0123456789' },
      models: [{ modelId: 'example' }],
    });
    const tools: Record<string, string> = {};
    for (const item of reportTools) {
      const { resource } = await call<{ resource: { id: string } }>('POST', `/spaces/${spaceId}/resources`, {
        type: 'tool',
        name: item.name,
        content: {
          kind: 'http',
          description: item.description,
          parameters: z.toJSONSchema(item.parameters as z.ZodType),
          request: { method: 'POST', url: `${toolServer.url}/${item.name}`, headers: {} },
        },
      });
      tools[item.name] = resource.id;
    }
    // The MCP server the query node calls, and one that cannot be reached (nothing listens on the discard port).
    const { resource: documents } = await call<{ resource: { id: string } }>('POST', `/spaces/${spaceId}/resources`, {
      type: 'mcp-server',
      name: 'Documents',
      content: { transport: 'streamable-http', url: mcpServer.url, headers: {} },
    });
    documentsServerId = documents.id;
    await call('POST', `/spaces/${spaceId}/resources`, {
      type: 'mcp-server',
      name: 'Offline archive',
      content: { transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: {} },
    });
    const modelChoice = { connectionId: connection.id, modelId: 'example' };
    const capabilities = (names: unknown) => ({
      builtIn: [],
      tools: ((names as string[] | undefined) ?? []).map((toolName) => tools[toolName]),
      skills: [],
    });
    for (const [name, agent] of Object.entries(exampleAgents)) {
      const mode = agent.mode as 'react' | 'plan-executor';
      const { app } = await call<{ app: { id: string } }>('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode, name });
      const config =
        mode === 'react'
          ? { model: modelChoice, prompt: { text: agent.prompt }, capabilities: capabilities(agent.tools) }
          : {
              model: modelChoice,
              planner: {
                prompt: { text: (agent.planner as { prompt: string }).prompt },
                capabilities: capabilities((agent.planner as { tools?: string[] }).tools),
              },
              executors: (agent.executors as { name: string; description: string; prompt: string; tools?: string[] }[]).map(
                (executor) => ({
                  name: executor.name,
                  description: executor.description,
                  prompt: { text: executor.prompt },
                  capabilities: capabilities(executor.tools),
                }),
              ),
              ...(agent.execution ? { execution: agent.execution } : {}),
            };
      await call('PUT', `/apps/${app.id}/draft`, { config }, { 'if-match': '"1"' });
      // The report writer stays unpublished for now: the canvas must say so on its node.
      if (name !== 'report-writer') await call('POST', `/apps/${app.id}/releases`, {});
      agentApps[name] = app.id;
    }
  });

  it('builds the example on the canvas: state, nodes, edges, a join, input and output mapping', async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/workflows`);
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('market-report');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow: market-report' }).waitFor();
    await node('START').waitFor();
    await checkPage('01-empty-canvas');

    for (const [field, reducer] of Object.entries(exampleDefinition.state as Record<string, { reducer: string }>)) {
      await page.getByLabel('State field name').fill(field);
      await page.getByLabel('Reducer').selectOption(reducer.reducer);
      await page.getByLabel('Type', { exact: true }).selectOption('string');
      await page.getByRole('button', { name: 'Add state field' }).click();
    }
    await page.getByLabel('Workflow output (comma-separated state fields)').fill('report, savedTo');

    const addNode = async (name: string, kind: 'agent' | 'capability', target: string) => {
      await page.getByLabel('Node kind').selectOption(kind);
      await page.getByLabel('Node name').fill(name);
      await page.getByLabel(kind === 'agent' ? 'Agent app to call' : 'Tool to call').selectOption({ label: target });
      await page.getByRole('button', { name: 'Add node' }).click();
      await node(name).waitFor();
      await panel()
        .getByRole('heading', { name: `Node ${name}` })
        .waitFor();
    };
    const connect = async (from: string, to: string) => {
      await node(from).click();
      await panel().getByLabel(`Connect ${from} to`).selectOption(to);
      await panel().getByRole('button', { name: 'Add edge' }).click();
      await page.locator(`.react-flow__edge[data-id$="-${from}"]`).first().waitFor({ state: 'attached' });
    };

    // The query calls an MCP server's tool: an unreachable server says so at the tool field, the real one lists its tools.
    await addNode('query', 'capability', 'Offline archive (MCP server)');
    await panel().getByText("The server's tools could not be listed:").waitFor();
    expect(await panel().getByLabel('MCP tool').getAttribute('aria-invalid')).toBe('true');
    await checkPage('02a-mcp-server-unreachable');
    await panel().getByLabel('MCP server').selectOption({ label: 'Documents' });
    await panel().getByRole('option', { name: 'search_documents' }).waitFor({ state: 'attached' });
    await panel().getByLabel('MCP tool').selectOption('search_documents');
    await node('query').getByText('Documents · search_documents').waitFor();
    await panel().getByLabel('Argument name').fill('query');
    await panel().getByRole('button', { name: 'Add argument' }).click();
    await panel().getByLabel('query from').selectOption('question');
    await panel().getByLabel('Output to').selectOption('documents');
    await connect('START', 'query');

    for (const [name, agent] of [
      ['summarize', 'summarizer'],
      ['find-risks', 'risk-analyst'],
    ] as const) {
      await addNode(name, 'agent', agent);
      await panel().getByLabel('Input from').selectOption('documents');
      await panel().getByLabel('Output to').selectOption('analyses');
    }
    // One edge drawn by dragging from a handle to a handle, the others from the side panel.
    await dragBetween(
      node('query').locator('.react-flow__handle.source'),
      node('summarize').locator('.react-flow__handle.target'),
    );
    // A connection drawn on the canvas asks what it becomes (issue 36): here a plain edge.
    await page.getByTestId('connect-choice').getByRole('button', { name: 'Edge', exact: true }).click();
    await page.locator('.react-flow__edge[data-id$="-query"]').first().waitFor({ state: 'attached' });
    await connect('query', 'find-risks');

    await addNode('write-report', 'agent', 'report-writer (not published)');
    await panel().getByLabel('Input from').selectOption('(template)');
    const template = (exampleDefinition.nodes as { name: string; input?: { template?: string } }[]).find(
      (item) => item.name === 'write-report',
    )?.input?.template;
    await panel().getByLabel('Input template').fill(String(template));
    await panel().getByLabel('Output to').selectOption('report');
    await panel().getByRole('checkbox', { name: 'summarize' }).check();
    await panel().getByRole('checkbox', { name: 'find-risks' }).check();
    await panel().getByRole('button', { name: 'Add join' }).click();

    await addNode('save', 'capability', 'save_report');
    await panel().getByLabel('title from').selectOption('(constant)');
    await panel().getByLabel('title constant').fill('market-report');
    await panel().getByLabel('markdown from').selectOption('report');
    await panel().getByLabel('Output to').selectOption('savedTo');
    // The edge write-report → save is left out on purpose: the check must show it on the node.
    await connect('save', 'END');
    // Moving a node keeps its place in the draft's layout.
    const box = await node('query').boundingBox();
    if (!box) throw new Error('query is not on screen');
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 10, box.y + 90, { steps: 8 });
    await page.mouse.up();

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await checkPage('02-built-on-canvas');
  });

  it('writes each problem on the node it concerns, then publishes once they are fixed', async () => {
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await node('write-report').locator('.flow-node-issue', { hasText: 'publish it first' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'bindings.agents.report-writer.appId' }).waitFor();
    await checkPage('03-unpublished-agent-on-node');

    await call('POST', `/apps/${agentApps['report-writer']}/releases`, {});
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await node('save').locator('.flow-node-issue', { hasText: 'cannot be reached from START' }).waitFor();
    await checkPage('04-unreachable-node');
    // The visible part only, for the README.
    await page.screenshot({ path: `${screenshotDirectory}04-unreachable-node-viewport.png` });

    await node('write-report').click();
    await panel().getByLabel('Connect write-report to').selectOption('save');
    await panel().getByRole('button', { name: 'Add edge' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The workflow is ready to publish.').waitFor();
    expect(await page.locator('.flow-node-issue').count()).toBe(0);

    // What the canvas built is the example's graph (its nodes, edges, state and output) with bindings.
    workflowId = page.url().split('/').at(-1) ?? '';
    const { draft } = await call<{
      draft: { config: { definition: Record<string, unknown>; bindings: Record<string, unknown>; layout: { nodes: object } } };
    }>('GET', `/apps/${workflowId}/draft`);
    const byName = (nodes: unknown) => [...(nodes as Node[])].sort((a, b) => a.name.localeCompare(b.name));
    const edgeKeys = (edges: unknown) => (edges as { from: unknown; to: string }[]).map((edge) => JSON.stringify(edge)).sort();
    expect(byName(draft.config.definition.nodes)).toEqual(byName(exampleDefinition.nodes));
    expect(edgeKeys(draft.config.definition.edges)).toEqual(edgeKeys(exampleDefinition.edges));
    expect(draft.config.definition.state).toEqual(exampleDefinition.state);
    expect(draft.config.definition.output).toEqual(exampleDefinition.output);
    expect(Object.keys(draft.config.layout.nodes)).toContain('query');
    expect(draft.config.bindings.mcpServers).toEqual({ documents: { resourceId: documentsServerId } });
    expect(draft.config.bindings.agents).toEqual({
      summarizer: { appId: agentApps.summarizer },
      'risk-analyst': { appId: agentApps['risk-analyst'] },
      'report-writer': { appId: agentApps['report-writer'] },
    });

    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Release notes').fill('Built on the canvas.');
    await page.getByRole('button', { name: 'Publish release' }).click();
    await page.getByText('Published release v1.').waitFor();
    await checkPage('05-published');
    await page.getByRole('link', { name: 'See the releases' }).click();
    await page.getByRole('cell', { name: 'Built on the canvas.' }).waitFor();
    await checkPage('06-releases');
  });

  it("runs the workflow built on the canvas from its page: node statuses live on the canvas, output equal to the example's", async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/workflows/${workflowId}`);
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Run workflow: market-report' }).waitFor();
    const input = page.getByLabel('Input (JSON object of state fields)');
    const run = page.getByRole('button', { name: 'Run', exact: true });
    // Refused at the field before anything is sent: not an object, then a field the workflow does not have.
    await input.fill('["heat pump"]');
    await run.click();
    await page.getByText('The input must be a JSON object of state fields, not array.').waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await input.fill('{ "topic": "heat pump" }');
    await run.click();
    await page.getByText(/^"topic" is not a state field of this workflow/).waitFor();
    await checkPage('09-run-input-refused');

    // The model holds its answers: the run is caught with the query done and both agents running.
    let releaseModel: () => void = () => {};
    model.gate = new Promise<void>((resolve) => {
      releaseModel = resolve;
    });
    await input.fill(JSON.stringify({ question: 'heat pump' }));
    await run.click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const runId = page.url().split('/').at(-1) ?? '';
    const status = (name: string) => node(name).locator('.flow-node').getAttribute('data-status');
    const showing = (name: string, value: string) => node(name).locator(`.flow-node[data-status="${value}"]`).waitFor();
    await showing('query', 'succeeded');
    await showing('summarize', 'running');
    await showing('find-risks', 'running');
    expect(await status('write-report')).toBe('pending');
    expect(await status('save')).toBe('pending');
    // A reload re-attaches to the run's events after the last one seen: the statuses are kept.
    await page.reload();
    await showing('summarize', 'running');
    await page.getByText(/re-attached \d+×, after event \d+/).waitFor();
    expect(await status('query')).toBe('succeeded');
    await checkPage('10-run-in-progress');
    await page.screenshot({ path: `${screenshotDirectory}10-run-in-progress-viewport.png` });
    model.gate = undefined;
    releaseModel();

    const outputText = page.getByTestId('run-output');
    await outputText.waitFor({ timeout: 90_000 });
    for (const item of exampleDefinition.nodes as Node[]) expect(await status(item.name)).toBe('succeeded');
    const output = JSON.parse((await outputText.textContent()) ?? '') as { report: string; savedTo: string };
    const { run: finished } = await call<{ run: { status: string } }>('GET', `/runs/${runId}`);
    const { view } = await call<{ view: { loops: number; workflow: { tasks: { step: number; node: string }[] } } }>(
      'GET',
      `/runs/${runId}/view`,
    );
    expect({
      status: finished.status,
      report: output.report,
      savedAs: basename(output.savedTo),
      saved: readFileSync(output.savedTo, 'utf8'),
      steps: stepsOf(view.workflow.tasks),
      loops: view.loops,
    }).toEqual(expected);
    // The query went to the MCP server (once, with the run's question), not to the HTTP tool of the same name.
    expect(mcpServer.calls).toEqual([{ tool: 'search_documents', arguments: { query: 'heat pump' } }]);
    await checkPage('11-run-succeeded');
    await page.screenshot({ path: `${screenshotDirectory}11-run-succeeded-viewport.png` });

    // An agent node drills into its own run: the Plan–Executor report writer's delegations, the risk analyst's tool call.
    await node('write-report').click();
    const drillIn = page.getByRole('region', { name: /^Agent node write-report: its run/ });
    await drillIn.getByText('Plan–Executor', { exact: false }).waitFor();
    await drillIn
      .getByRole('cell', { name: /section_writer/ })
      .first()
      .waitFor();
    await checkPage('12-agent-node-run');
    await node('find-risks').click();
    await page
      .getByRole('region', { name: /^Agent node find-risks: its run/ })
      .getByRole('cell', { name: 'find_dates' })
      .waitFor();
  });

  it("imports the example's JSON into a second workflow, round-trips it through the JSON view and exports it equal", async () => {
    await page.goto(`${platform.url}/spaces/${spaceId}/workflows`);
    await page.getByLabel('Name', { exact: true }).fill('imported-report');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflow: imported-report' }).waitFor();
    // The example with its MCP query: the node's server name binds to the space's "Documents" MCP server.
    const importPath = join(importDirectory, basename(examplePath));
    writeFileSync(importPath, JSON.stringify(exampleDefinition, null, 2));
    await page.getByLabel('Definition file to import').setInputFiles(importPath);
    await page.getByText('Imported market-report.json; save the draft to keep it.').waitFor();
    for (const item of exampleDefinition.nodes as Node[]) await node(item.name).waitFor();
    expect(await page.locator('.react-flow__edge').count()).toBe(7);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/^Saved \(revision \d+\)\.$/).waitFor();
    await page.getByRole('button', { name: 'Check for problems' }).click();
    await page.getByText('The workflow is ready to publish.').waitFor();
    await node('query').getByText('Documents · search_documents').waitFor();
    await checkPage('07-imported');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByLabel('Workflow definition (JSON)');
    await json.fill('{ "nodes": [');
    await page.getByText(/^Not valid JSON/).waitFor();
    expect(await json.getAttribute('aria-invalid')).toBe('true');
    await checkPage('08-json-invalid');
    const withoutSave = {
      ...exampleDefinition,
      nodes: (exampleDefinition.nodes as Node[]).filter((item) => item.name !== 'save'),
      edges: [...(exampleDefinition.edges as { to: string }[]).slice(0, 4), { from: 'write-report', to: 'END' }],
    };
    await json.fill(JSON.stringify(withoutSave, null, 2));
    await page.getByRole('tab', { name: 'Canvas' }).click();
    await node('write-report').waitFor();
    expect(await node('save').count()).toBe(0);
    await page.getByRole('tab', { name: 'JSON' }).click();
    await json.fill(JSON.stringify(exampleDefinition, null, 2));
    await page.getByRole('tab', { name: 'Canvas' }).click();
    await node('save').waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export definition' }).click();
    const file = await (await download).path();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(exampleDefinition);
    expect(pageErrors).toEqual([]);
  });
});
