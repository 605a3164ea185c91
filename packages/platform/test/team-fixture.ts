import { expectStatus, saveDraft } from './workflow-fixture.js';

/** What `saveDraft` and `request` need of a signed-in client (the in-process and the process one). */
export interface DraftClient {
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown }>;
}

/** The replies of the offline demo model the team members speak with (the model of the demo seed). */
export const teamDemoReplies = [
  { whenInputContains: 'review', reply: 'Critic: the draft is clear; ship it.' },
  { whenInputContains: 'tides', reply: 'Writer: tides follow the moon. Please review.' },
];

/** Creates a space with an offline demo model connection (no key, no network); answers their ids. */
export async function createDemoSpace(owner: DraftClient, name: string) {
  const { space } = await expectStatus<{ space: { id: string } }>(owner.request('POST', '/spaces', { name }), 201);
  const { connection } = await expectStatus<{ connection: { id: string } }>(
    owner.request('POST', `/spaces/${space.id}/model-connections`, {
      name: 'Offline demo',
      provider: 'offline-demo',
      settings: { demoReplies: teamDemoReplies, demoFallback: 'Nothing to add.' },
      models: [{ modelId: 'offline-demo-1' }],
    }),
    201,
  );
  return { spaceId: space.id, connectionId: connection.id };
}

/** Creates a ReAct agent app with a prompt on `connectionId` / `modelId`, publishing it unless told not to. */
export async function createAgentApp(
  owner: DraftClient,
  spaceId: string,
  name: string,
  model: { connectionId: string; modelId: string },
  prompt: string,
  publish = true,
): Promise<string> {
  const { app } = await expectStatus<{ app: { id: string } }>(
    owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'agent', mode: 'react', name }),
    201,
  );
  const config = { model, prompt: { text: prompt }, capabilities: { builtIn: [], tools: [], skills: [] } };
  await expectStatus(saveDraft(owner as never, app.id, config), 200);
  if (publish) await expectStatus(owner.request('POST', `/apps/${app.id}/releases`, {}), 201);
  return app.id;
}

/**
 * The draft of a workflow whose one node is a team: `question` is the team's task, `answer` the
 * answer of the member that owns it; the members are the given agent apps.
 */
export function teamWorkflowDraft(
  members: { name: string; appId: string }[],
  team: { topology?: Record<string, unknown>; maxTurns?: number; budget?: { maxTokens?: number } } = {},
) {
  return {
    definition: {
      formatVersion: 1,
      kind: 'workflow',
      name: 'team-flow',
      state: {
        question: { reducer: 'last-value', schema: { type: 'string' } },
        answer: { reducer: 'last-value', schema: { type: 'string' } },
      },
      nodes: [{ name: 'pair', kind: 'team', team: 'pair', input: 'question', output: 'answer' }],
      edges: [
        { from: 'START', to: 'pair' },
        { from: 'pair', to: 'END' },
      ],
      output: ['answer'],
    },
    bindings: {
      agents: {},
      tools: {},
      mcpServers: {},
      teams: {
        pair: {
          topology: team.topology ?? { kind: 'group-chat' },
          members,
          maxTurns: team.maxTurns ?? 4,
          ...(team.budget ? { budget: team.budget } : {}),
        },
      },
    },
  };
}

/** Creates a workflow app with `draft` saved; answers its id. */
export async function createWorkflowApp(owner: DraftClient, spaceId: string, name: string, draft: unknown): Promise<string> {
  const { app } = await expectStatus<{ app: { id: string } }>(
    owner.request('POST', `/spaces/${spaceId}/apps`, { kind: 'workflow', name }),
    201,
  );
  await expectStatus(saveDraft(owner as never, app.id, draft), 200);
  return app.id;
}
