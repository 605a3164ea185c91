import type { Kysely, Transaction } from 'kysely';
import { pinResources } from '../../adapters/database/repositories/resource-repository.js';
import type { AppReleaseRow, AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { AssemblyError, assembleWorkflow } from '../../assembly/index.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import {
  type DraftIssue,
  validateWorkflowDraft,
  type WorkflowDraft,
  workflowDraftSchema,
  workflowDraftSchemaVersion,
} from '../../domain/index.js';
import type { WorkflowReleaseSnapshot } from '../../domain/release-snapshot.js';
import type { PinnedTeam } from '../../domain/workflow-team.js';
import type { PlatformContext } from '../context.js';
import { agentNameOf } from './resolve-snapshot.js';
import { publishSnapshot } from './save-release.js';
import { databaseWorkflowPorts, readWorkflowLookups } from './workflow-lookups.js';

type Queryable = Kysely<PlatformDatabase> | Transaction<PlatformDatabase>;

/** What checking a workflow draft found: every issue, or the snapshot it would publish. */
export type WorkflowCheck = { issues: DraftIssue[]; snapshot?: undefined } | { issues: []; snapshot: WorkflowReleaseSnapshot };

/**
 * Checks a workflow draft the way a publish does (P-6.7): the draft's own issues, then — when
 * there are none — resolves the snapshot (each agent name pinned to its app's newest release,
 * each tool to its newest version, P-6.9) and builds it into an SDK workflow as a dry run, whose
 * problems (the SDK's `WorkflowIssue`s among them) become issues too, code `invalid-definition`.
 */
export async function checkWorkflowDraft(
  services: PlatformContext,
  database: Queryable,
  app: AppRow,
  draft: WorkflowDraft,
): Promise<WorkflowCheck> {
  const issues = validateWorkflowDraft(draft, await readWorkflowLookups(database, app.space_id, draft));
  if (issues.length > 0) return { issues };
  const agents: Record<string, { appId: string; releaseId: string; version: number }> = {};
  for (const [name, binding] of Object.entries(draft.bindings.agents))
    agents[name] = await latestAgentRelease(database, app.space_id, binding.appId);
  const teams: Record<string, PinnedTeam> = {};
  for (const [name, team] of Object.entries(draft.bindings.teams ?? {})) {
    const members: PinnedTeam['members'][number][] = [];
    for (const member of team.members) {
      const pinned = await latestAgentRelease(database, app.space_id, member.appId);
      members.push({ ...member, ...pinned });
    }
    teams[name] = { ...team, members };
  }
  const tools = await pinResources(database, app.space_id, draft.bindings.tools);
  const mcpServers = await pinResources(database, app.space_id, draft.bindings.mcpServers);
  const remoteAgents = await pinResources(database, app.space_id, draft.bindings.remoteAgents ?? {});
  const snapshot: WorkflowReleaseSnapshot = {
    schemaVersion: 1,
    kind: 'workflow',
    name: agentNameOf(app),
    description: app.description,
    definition: draft.definition,
    agents,
    tools,
    ...(Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
    ...(Object.keys(remoteAgents).length > 0 ? { remoteAgents } : {}),
    ...(Object.keys(teams).length > 0 ? { teams } : {}),
    interruptsRunsInProgress: false,
  };
  try {
    await assembleWorkflow(snapshot, databaseWorkflowPorts(services, app, { queryable: database }));
  } catch (error) {
    if (!(error instanceof AssemblyError)) throw error;
    return { issues: error.issues.map((issue) => ({ path: issue.path, code: 'invalid-definition', message: issue.message })) };
  }
  return { issues: [], snapshot };
}

/** The newest release of an agent app of the space (checked published by the draft's validation). */
async function latestAgentRelease(
  database: Queryable,
  spaceId: string,
  appId: string,
): Promise<{ appId: string; releaseId: string; version: number }> {
  const row = await database
    .selectFrom('apps')
    .innerJoin('app_releases', 'app_releases.id', 'apps.latest_release_id')
    .select(['apps.id', 'app_releases.id as releaseId', 'app_releases.version'])
    .where('apps.id', '=', appId)
    .where('apps.space_id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return { appId: row.id, releaseId: row.releaseId, version: row.version };
}

/**
 * Publishes a workflow app's draft (P-6.7, P-6.9): every issue refuses it with a validation error
 * `draft-invalid` (an unpublished agent app among them, listed at its binding); otherwise one
 * transaction saves the immutable release, whose snapshot pins the agent releases it calls, its
 * "who uses this" rows (tools by version, agent apps by release version, D-P4) and the app's
 * latest release. Runs in progress are not interrupted: they finish on the release they pinned
 * at their start (D-P2).
 */
export async function publishWorkflowRelease(
  services: PlatformContext,
  app: AppRow,
  actor: string,
  notes: string,
): Promise<AppReleaseRow> {
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
  const { database, now } = services;
  return database.transaction().execute(async (transaction) => {
    const draftRow = await transaction
      .selectFrom('app_drafts')
      .selectAll()
      .where('app_id', '=', app.id)
      .executeTakeFirstOrThrow();
    const draft = workflowDraftSchema.parse(JSON.parse(draftRow.config));
    const checked = await checkWorkflowDraft(services, transaction, app, draft);
    if (!checked.snapshot)
      throw new ValidationError('draft-invalid', 'The draft cannot be published; fix every issue listed.', {
        issues: checked.issues,
      });
    const { snapshot } = checked;
    const references = [
      ...[
        ...Object.values(snapshot.tools),
        ...Object.values(snapshot.mcpServers ?? {}),
        ...Object.values(snapshot.remoteAgents ?? {}),
      ].map((pin) => ({
        target_kind: 'resource' as const,
        resource_id: pin.resourceId,
        resource_version: pin.version,
      })),
      ...[...Object.values(snapshot.agents), ...Object.values(snapshot.teams ?? {}).flatMap((team) => team.members)].map(
        (pin) => ({
          target_kind: 'agent-app' as const,
          resource_id: pin.appId,
          resource_version: pin.version,
        }),
      ),
    ];
    return publishSnapshot(transaction, {
      appId: app.id,
      snapshot,
      draftSchemaVersion: workflowDraftSchemaVersion,
      draftRevision: draftRow.revision,
      notes,
      interruptRuns: false,
      actor,
      publishedAt: now().toISOString(),
      references,
    });
  });
}
