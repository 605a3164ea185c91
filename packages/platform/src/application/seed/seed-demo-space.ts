import type { AppRow } from '../../adapters/database/index.js';
import { listConnections, readConnection } from '../../adapters/database/repositories/connection-repository.js';
import { listResources } from '../../adapters/database/repositories/resource-repository.js';
import type { ConnectionSettings } from '../../domain/connection-settings.js';
import { toolContentSchema } from '../../domain/resource-content.js';
import { createApp } from '../apps/app-service.js';
import { createConnection } from '../connections/connection-service.js';
import type { PlatformContext } from '../context.js';
import { readDraft, saveDraft } from '../drafts/draft-service.js';
import { publishAgentRelease } from '../releases/publish-release.js';
import { publishWorkflowRelease } from '../releases/publish-workflow-release.js';
import { createResource } from '../resources/resource-service.js';
import { publishRouterRelease } from '../routers/router-release.js';
import { demoLookupTool, demoPrompts, demoQuestions, demoScripts } from './demo-content.js';
import { demoRouterCatalog, demoTeamDraft, demoWorkflowDraft } from './demo-drafts.js';

/** The name of the seeded offline model connection (also how a Demo space seeded before issue 35 is recognised). */
export const demoConnectionName = 'Offline demo model';
const demoModelId = 'offline-demo-1';

/** The demo model's settings: the scripts, plus the plain fallback for anything they do not cover. */
export const demoConnectionSettings: ConnectionSettings = {
  demoScripts,
  demoFallback:
    '[Scripted demo] I am the offline demo model and only follow my scripts. Add a real model connection to get real answers.',
};

/** The URL of the demo HTTP tool: the platform's own demo endpoint, the one self-call the egress policy allows. */
export const demoLookupUrl = 'http://demo.agentloom.localhost/api/v1/demo/lookup';

/** The seeded apps by name, so that a second start (or one after a half-done seed) adds only what is missing. */
export const demoAppNames = {
  assistant: 'Demo assistant',
  planner: 'Demo planner',
  writer: 'Team writer',
  reviewer: 'Team reviewer',
  workflow: 'Demo workflow',
  team: 'Demo team',
  router: 'Demo router',
} as const;

interface SeedState {
  services: PlatformContext;
  spaceId: string;
  actor: string;
  apps: Map<string, AppRow>;
}

/** Creates an app with `draft` saved over its empty one, unless an app of that name exists; answers the app. */
async function ensureApp(
  state: SeedState,
  input: { kind: AppRow['kind']; name: string; description: string; mode?: 'react' | 'plan-executor' },
  draft: unknown,
  publish: (app: AppRow) => Promise<unknown>,
): Promise<AppRow> {
  const existing = state.apps.get(input.name);
  if (existing) return existing;
  const app = await createApp(state.services, state.spaceId, state.actor, input);
  const { revision } = await readDraft(state.services, app);
  await saveDraft(state.services, app, state.actor, `"${revision}"`, draft);
  try {
    await publish(app);
  } catch (error) {
    // A seed that cannot publish is a bug of the seed: say which app and why, not only "draft-invalid".
    const details = (error as { details?: unknown }).details;
    throw new Error(`Seeding the demo app "${input.name}" failed: ${(error as Error).message} ${JSON.stringify(details ?? {})}`);
  }
  state.apps.set(app.name, app);
  return app;
}

/**
 * Fills the Demo space with what is missing of the demo (issue 35): the offline model with its
 * scripts, the demo HTTP tool, a ReAct assistant (a file tool and the HTTP tool), a Plan–Executor
 * planner with two executor roles, two team members, a workflow (tool node, both agents, a
 * human-input node), a team workflow and a router over the agents. Every app is published. It
 * goes through the same application services as the HTTP API, so the seed is what an owner could
 * have built by hand. Idempotent: what exists (by name) is kept as it is.
 */
export async function seedDemoSpace(services: PlatformContext, spaceId: string, actor: string): Promise<void> {
  const { database } = services;
  let connection = (await listConnections(database, spaceId)).find(
    (row) => row.provider === 'offline-demo' && row.name === demoConnectionName,
  );
  if (connection) {
    await database
      .updateTable('model_connections')
      .set({ settings: JSON.stringify(demoConnectionSettings) })
      .where('id', '=', connection.id)
      .execute();
  } else {
    const view = await createConnection(services, spaceId, actor, {
      name: demoConnectionName,
      provider: 'offline-demo',
      baseUrl: null,
      settings: demoConnectionSettings,
      models: [{ modelId: demoModelId, contextWindow: 32_000, supportsThinking: false, enabled: true }],
    });
    connection = await readConnection(database, view.id);
  }
  const model = { connectionId: connection.id, modelId: demoModelId };

  const existingTool = (await listResources(database, spaceId, 'tool')).find((row) => row.name === demoLookupTool);
  let toolId = existingTool?.id;
  if (!toolId) {
    const content = toolContentSchema.parse({
      kind: 'http',
      description: "Looks a topic up at the platform's own demo endpoint (demo mode only).",
      parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
      request: { method: 'POST', url: demoLookupUrl, headers: {} },
      timeoutMs: 10_000,
    });
    const created = await createResource(
      services,
      spaceId,
      actor,
      { type: 'tool', name: demoLookupTool, description: 'The demo endpoint of this platform.', content },
      true,
    );
    toolId = created.id;
  }

  const rows = await database
    .selectFrom('apps')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('state', '=', 'active')
    .execute();
  const state: SeedState = { services, spaceId, actor, apps: new Map(rows.map((row) => [row.name, row])) };
  const publishAgent = (app: AppRow) => publishAgentRelease(services, app, actor, 'Seeded demo release.');
  const agentDraft = (prompt: string, extra: Record<string, unknown> = {}) => ({
    model,
    prompt: { text: prompt },
    variables: {},
    capabilities: { builtIn: [], tools: [], skills: [], mcpServers: [] },
    executors: [],
    hooks: [],
    execution: {},
    context: {},
    environment: { persistentSandbox: false },
    ...extra,
  });
  const noTools = { builtIn: [], tools: [], skills: [], mcpServers: [] };

  const assistant = await ensureApp(
    state,
    {
      kind: 'agent',
      mode: 'react',
      name: demoAppNames.assistant,
      description: `ReAct: a file tool and an HTTP tool. Try: ${demoQuestions.assistant}`,
    },
    agentDraft(demoPrompts.assistant, { capabilities: { ...noTools, builtIn: ['workspace-files'], tools: [toolId] } }),
    publishAgent,
  );
  const planner = await ensureApp(
    state,
    {
      kind: 'agent',
      mode: 'plan-executor',
      name: demoAppNames.planner,
      description: `Plan–Executor: two executor roles in one parallel batch. Try: ${demoQuestions.planner}`,
    },
    agentDraft(demoPrompts.planner, {
      prompt: undefined,
      planner: { prompt: { text: demoPrompts.planner }, capabilities: noTools },
      executors: [
        {
          name: 'researcher',
          description: 'Researches a question with the demo lookup tool.',
          prompt: { text: demoPrompts.researcher },
          capabilities: { ...noTools, tools: [toolId] },
        },
        {
          name: 'critic',
          description: 'Says what to check before trusting an answer.',
          prompt: { text: demoPrompts.critic },
          capabilities: noTools,
        },
      ],
      execution: { parallel: true, maxParallelExecutors: 2 },
    }),
    publishAgent,
  );
  const writer = await ensureApp(
    state,
    { kind: 'agent', mode: 'react', name: demoAppNames.writer, description: 'A member of the demo team.' },
    agentDraft(demoPrompts.writer),
    publishAgent,
  );
  const reviewer = await ensureApp(
    state,
    { kind: 'agent', mode: 'react', name: demoAppNames.reviewer, description: 'A member of the demo team.' },
    agentDraft(demoPrompts.reviewer),
    publishAgent,
  );

  const publishWorkflow = (app: AppRow) => publishWorkflowRelease(services, app, actor, 'Seeded demo release.');
  await ensureApp(
    state,
    {
      kind: 'workflow',
      name: demoAppNames.workflow,
      description: `A tool node, both agents in parallel and a person's approval. Try: ${demoQuestions.workflow}`,
    },
    demoWorkflowDraft(assistant.id, planner.id, toolId),
    publishWorkflow,
  );
  await ensureApp(
    state,
    {
      kind: 'workflow',
      name: demoAppNames.team,
      description: `A team node: writer and reviewer take turns. Try: ${demoQuestions.team}`,
    },
    demoTeamDraft(writer.id, reviewer.id),
    publishWorkflow,
  );
  await ensureApp(
    state,
    {
      kind: 'router',
      name: demoAppNames.router,
      description: `Routes a request to the assistant or the planner. Try: ${demoQuestions.router}`,
    },
    demoRouterCatalog(assistant.id, planner.id),
    (app) => publishRouterRelease(services, app, actor, 'Seeded demo release.'),
  );
}
