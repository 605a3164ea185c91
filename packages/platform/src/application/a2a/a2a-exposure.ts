import type { AppRow } from '../../adapters/database/schema.js';
import { a2aProtocolVersion, a2aResumeExtension } from '../../domain/a2a-task.js';
import type { PlatformContext } from '../context.js';

/** The A2A switch of an app, as the API shows it. */
export interface A2aExposure {
  enabled: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
}

/** Whether an app is published over A2A (off by default: no row). */
export async function readA2aExposure(context: Pick<PlatformContext, 'database'>, appId: string): Promise<A2aExposure> {
  const row = await context.database.selectFrom('app_a2a').selectAll().where('app_id', '=', appId).executeTakeFirst();
  return { enabled: row?.enabled === 1, updatedBy: row?.updated_by ?? null, updatedAt: row?.updated_at ?? null };
}

/** Switches A2A on or off for an app (editors and above; the route checks). */
export async function setA2aExposure(
  context: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  enabled: boolean,
  actor: string,
): Promise<A2aExposure> {
  const at = context.now().toISOString();
  await context.database
    .insertInto('app_a2a')
    .values({ app_id: app.id, enabled: enabled ? 1 : 0, updated_by: actor, updated_at: at })
    .onConflict((conflict) =>
      conflict.column('app_id').doUpdateSet({ enabled: enabled ? 1 : 0, updated_by: actor, updated_at: at }),
    )
    .execute();
  return { enabled, updatedBy: actor, updatedAt: at };
}

/** The path of an app's A2A surface below the server's origin. */
export function a2aBasePath(appId: string): string {
  return `/a2a/apps/${encodeURIComponent(appId)}`;
}

/**
 * The Agent Card of an app published over A2A (A2A 1.0 §8): its name and description, one skill
 * (the app itself: an agent takes text, a workflow a data part with its state fields), the
 * JSON-RPC interface at `{origin}/a2a/apps/{appId}`, streaming and push notifications on, the
 * resume extension, and the app's bearer API key as the one security scheme.
 */
export function agentCardOf(app: AppRow, origin: string, releaseVersion: number | null) {
  const inputModes = app.kind === 'agent' ? ['text/plain'] : ['application/json'];
  const outputModes = app.kind === 'agent' ? ['text/plain'] : ['application/json'];
  return {
    name: app.name,
    description: app.description || `The AgentLoom ${app.kind} ${app.name}.`,
    version: releaseVersion === null ? '0' : String(releaseVersion),
    supportedInterfaces: [
      { url: `${origin}${a2aBasePath(app.id)}`, protocolBinding: 'JSONRPC', protocolVersion: a2aProtocolVersion },
    ],
    provider: { organization: 'AgentLoom', url: origin },
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: false,
      extensions: [
        {
          uri: a2aResumeExtension,
          description:
            'Resume a stream after a journal sequence: send `metadata.afterSeq` on SubscribeToTask; every event carries `metadata["agentloom.seq"]`.',
          required: false,
        },
      ],
    },
    defaultInputModes: inputModes,
    defaultOutputModes: outputModes,
    skills: [
      {
        id: app.id,
        name: app.name,
        description:
          app.kind === 'agent'
            ? app.description || 'Answers a text message.'
            : `${app.description ? `${app.description} ` : ''}Send a data part with the values of the workflow's state fields.`,
        tags: [app.kind, ...(app.mode ? [app.mode] : [])],
        inputModes,
        outputModes,
      },
    ],
    securitySchemes: {
      appKey: { httpAuthSecurityScheme: { scheme: 'Bearer', description: "The app's API key (`al_…`)." } },
    },
    securityRequirements: [{ schemes: { appKey: { list: [] } } }],
  };
}

/** The card of an app now: `version` is its newest release's number. */
export async function readAgentCard(context: Pick<PlatformContext, 'database'>, app: AppRow, origin: string) {
  const release = app.latest_release_id
    ? await context.database
        .selectFrom('app_releases')
        .select('version')
        .where('id', '=', app.latest_release_id)
        .executeTakeFirst()
    : undefined;
  return agentCardOf(app, origin, release?.version ?? null);
}
