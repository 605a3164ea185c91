import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@agentloom/sdk';
import { expect } from 'vitest';
import { z } from 'zod';
import type { TestClient } from './harness.js';

/** The seeds' example workflow (P-7.5) as JSON: `examples/workflow/definitions/market-report.json`. */
export const exampleDefinitionPath = fileURLToPath(
  new URL('../../../examples/workflow/definitions/market-report.json', import.meta.url),
);
/** The example's documents, which its query tool reads. */
export const exampleDocumentsDirectory = fileURLToPath(new URL('../../../examples/workflow/data/documents', import.meta.url));

interface InlineAgent {
  name: string;
  mode: 'react' | 'plan-executor';
  prompt?: string;
  tools?: string[];
  planner?: { prompt: string; tools?: string[] };
  executors?: { name: string; description: string; prompt: string; tools?: string[] }[];
  execution?: Record<string, unknown>;
}

/** Checks a response's status (showing its body when it differs) and answers the body. */
export async function expectStatus<T>(response: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const result = await response;
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  return result.body as T;
}

/** Reads the draft's revision and saves `config` over it; answers the response. */
export async function saveDraft(owner: TestClient, appId: string, config: unknown) {
  const { draft } = await expectStatus<{ draft: { revision: number } }>(owner.request('GET', `/apps/${appId}/draft`), 200);
  return owner.request('PUT', `/apps/${appId}/draft`, { config }, { 'if-match': `"${draft.revision}"` });
}

/** What importing the example created: the workflow app, its agent apps by name and its tool resources by name. */
export interface ImportedExample {
  workflowAppId: string;
  agentApps: Record<string, string>;
  toolResources: Record<string, string>;
  /** The workflow draft as saved (definition without inline agents, bindings). */
  draft: { definition: Record<string, unknown>; bindings: Record<string, unknown> };
}

/**
 * Builds the example through the platform's HTTP API, from its JSON only: each tool it names
 * becomes a custom HTTP tool resource served by `toolUrl/<name>` (its JSON Schema from the given
 * SDK tool), each inline agent a published agent app of the same mode, prompts and tools on the
 * space's model connection, and the definition — its inline agents replaced by bindings to those
 * apps — the draft of a new workflow app. With `mcpQueryUrl` the query node calls the MCP server there. Publishing the workflow is left to the caller.
 */
export async function importExampleWorkflow(
  owner: TestClient,
  spaceId: string,
  connectionId: string,
  tools: readonly Tool[],
  toolUrl: string,
  options: {
    publishAgents?: boolean;
    /**
     * The MCP server (streamable HTTP) that serves the query tool: the query node then calls it
     * as an MCP tool (P-7.5: "MCP query"), bound through `bindings.mcpServers.documents`.
     */
    mcpQueryUrl?: string;
  } = {},
): Promise<ImportedExample> {
  const base = `/spaces/${spaceId}`;
  const definition = JSON.parse(readFileSync(exampleDefinitionPath, 'utf8')) as Record<string, unknown> & {
    agents: Record<string, InlineAgent>;
  };
  const toolResources: Record<string, string> = {};
  for (const item of tools) {
    const { resource } = await expectStatus<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'tool',
        name: item.name,
        content: {
          kind: 'http',
          description: item.description,
          parameters: z.toJSONSchema(item.parameters as z.ZodType),
          request: { method: 'POST', url: `${toolUrl}/${item.name}`, headers: {} },
        },
      }),
      201,
    );
    toolResources[item.name] = resource.id;
  }
  const capabilities = (names: readonly string[] = []) => ({
    builtIn: [],
    tools: names.map((name) => toolResources[name]),
    skills: [],
  });
  const agentApps: Record<string, string> = {};
  for (const [name, agent] of Object.entries(definition.agents)) {
    const { app } = await expectStatus<{ app: { id: string } }>(
      owner.request('POST', `${base}/apps`, { kind: 'agent', mode: agent.mode, name }),
      201,
    );
    const model = { connectionId, modelId: 'example' };
    const config =
      agent.mode === 'react'
        ? { model, prompt: { text: agent.prompt }, capabilities: capabilities(agent.tools) }
        : {
            model,
            planner: { prompt: { text: agent.planner?.prompt }, capabilities: capabilities(agent.planner?.tools) },
            executors: (agent.executors ?? []).map((executor) => ({
              name: executor.name,
              description: executor.description,
              prompt: { text: executor.prompt },
              capabilities: capabilities(executor.tools),
            })),
            ...(agent.execution ? { execution: agent.execution } : {}),
          };
    await expectStatus(saveDraft(owner, app.id, config), 200);
    if (options.publishAgents !== false) await expectStatus(owner.request('POST', `/apps/${app.id}/releases`, {}), 201);
    agentApps[name] = app.id;
  }
  const { app } = await expectStatus<{ app: { id: string } }>(
    owner.request('POST', `${base}/apps`, { kind: 'workflow', name: String(definition.name) }),
    201,
  );
  const { agents: _inline, ...rest } = definition;
  const mcpServers: Record<string, { resourceId: string }> = {};
  if (options.mcpQueryUrl) {
    const { resource } = await expectStatus<{ resource: { id: string } }>(
      owner.request('POST', `${base}/resources`, {
        type: 'mcp-server',
        name: 'Documents',
        content: { transport: 'streamable-http', url: options.mcpQueryUrl, headers: {} },
      }),
      201,
    );
    mcpServers.documents = { resourceId: resource.id };
    rest.nodes = (rest.nodes as { name: string }[]).map((node) =>
      node.name === 'query' ? { ...node, server: 'documents' } : node,
    );
  }
  const usedTools = (rest.nodes as { kind: string; tool?: string; server?: string }[]).flatMap((node) =>
    node.kind === 'capability' && node.tool && !node.server ? [node.tool] : [],
  );
  const draft = {
    definition: rest,
    bindings: {
      agents: Object.fromEntries(Object.entries(agentApps).map(([name, appId]) => [name, { appId }])),
      tools: Object.fromEntries(usedTools.map((name) => [name, { resourceId: toolResources[name] }])),
      ...(options.mcpQueryUrl ? { mcpServers } : {}),
    },
  };
  await expectStatus(saveDraft(owner, app.id, draft), 200);
  return { workflowAppId: app.id, agentApps, toolResources, draft };
}

/** Creates a space with a model connection to `modelUrl` (model id `example`); answers their ids. */
export async function createExampleSpace(owner: TestClient, modelUrl: string, name: string) {
  const { space } = await expectStatus<{ space: { id: string } }>(owner.request('POST', '/spaces', { name }), 201);
  const { connection } = await expectStatus<{ connection: { id: string } }>(
    owner.request('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Example model',
      provider: 'openai-compatible',
      baseUrl: `${modelUrl}/v1`,
      key: { label: 'main', value: 'sk-example-key-0123456789' },
      models: [{ modelId: 'example' }],
    }),
    201,
  );
  return { spaceId: space.id, connectionId: connection.id };
}
