import type { Transaction } from 'kysely';
import { newId } from '../../adapters/crypto/index.js';
import { insertRelease } from '../../adapters/database/repositories/release-repository.js';
import { canonicalJson, hashJson } from '../../adapters/database/repositories/resource-repository.js';
import type { AppReleaseRow, AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { AssemblyError, assembleAgent } from '../../assembly/index.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { agentDraftSchema, agentDraftSchemaVersion, validateAgentDraft } from '../../domain/index.js';
import type { PlatformContext } from '../context.js';
import { databaseAssemblyPorts } from './database-assembly-ports.js';
import { readDraftLookups } from './draft-lookups.js';
import { resolveAgentSnapshot } from './resolve-snapshot.js';
import { publishSnapshot } from './save-release.js';

/**
 * Publishes an agent app's draft (P-6, S): validate (every issue, a validation error `draft-invalid`) →
 * resolve into a snapshot with pinned versions → build it into an SDK agent as a dry run (a validation error
 * `release-build-failed`) → save the immutable release, its "who uses this" rows and the app's
 * latest release, all in one transaction: a refused publish writes nothing. The release records
 * that it interrupts runs in progress (P-6.3); stopping them lands with runs (issue 14).
 */
export async function publishAgentRelease(
  services: PlatformContext,
  app: AppRow,
  actor: string,
  notes: string,
): Promise<AppReleaseRow> {
  if (app.kind !== 'agent')
    throw new ValidationError('not-yet-supported', 'Workflow apps are published once the workflow editor lands (a later issue).');
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
  const { database, now } = services;
  return database.transaction().execute(async (transaction) => {
    const { snapshot, pinned, draftRevision } = await buildDraftSnapshot(services, transaction, app);
    return publishSnapshot(transaction, {
      appId: app.id,
      snapshot,
      draftSchemaVersion: agentDraftSchemaVersion,
      draftRevision,
      notes,
      interruptRuns: true,
      actor,
      publishedAt: now().toISOString(),
      references: [
        ...pinned.map((pin) => ({
          target_kind: 'resource' as const,
          resource_id: pin.resourceId,
          resource_version: pin.version,
        })),
        ...[
          ...new Set([snapshot.model.connectionId, ...(snapshot.model.fallbacks ?? []).map((model) => model.connectionId)]),
        ].map((connectionId) => ({
          target_kind: 'model-connection' as const,
          resource_id: connectionId,
          resource_version: null,
        })),
      ],
    });
  });
}

/**
 * The app's saved draft as a release snapshot, checked the way publish checks it: validate (every
 * issue, a validation error `draft-invalid`) → resolve with pinned versions → build it into an SDK agent as a
 * dry run (a validation error `release-build-failed`). Writes nothing.
 */
export async function buildDraftSnapshot(
  services: PlatformContext,
  transaction: Transaction<PlatformDatabase>,
  app: AppRow,
): Promise<Awaited<ReturnType<typeof resolveAgentSnapshot>> & { draftRevision: number }> {
  const draftRow = await transaction.selectFrom('app_drafts').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
  const draft = agentDraftSchema.parse(JSON.parse(draftRow.config));
  const mode = app.mode ?? 'react';
  const issues = validateAgentDraft(draft, mode, await readDraftLookups(transaction, app.space_id, draft));
  if (issues.length > 0)
    throw new ValidationError('draft-invalid', 'The draft cannot be built; fix every issue listed.', { issues });
  const resolved = await resolveAgentSnapshot(transaction, app, draft);
  try {
    await assembleAgent(resolved.snapshot, databaseAssemblyPorts(services, app, { queryable: transaction }));
  } catch (error) {
    if (error instanceof AssemblyError)
      throw new ValidationError('release-build-failed', error.message, { issues: error.issues });
    throw error;
  }
  return { ...resolved, draftRevision: draftRow.revision };
}

/**
 * Saves an immutable snapshot of the draft as a `debug` release for one console debug run
 * (PLATFORM.md §4.4 `release: 'draft'`): the run keeps it however the draft changes later.
 * Debug releases have negative versions, so they never take a release number, never appear in
 * the release list and never become the app's latest release.
 */
export async function createDebugRelease(
  services: PlatformContext,
  transaction: Transaction<PlatformDatabase>,
  app: AppRow,
  actor: string,
): Promise<AppReleaseRow> {
  const { snapshot, draftRevision } = await buildDraftSnapshot(services, transaction, app);
  const lowest = await transaction
    .selectFrom('app_releases')
    .select('version')
    .where('app_id', '=', app.id)
    .where('kind', '=', 'debug')
    .orderBy('version', 'asc')
    .limit(1)
    .executeTakeFirst();
  const release: AppReleaseRow = {
    id: newId('dbg'),
    app_id: app.id,
    version: Math.min(lowest?.version ?? 0, 0) - 1,
    kind: 'debug',
    config_snapshot: canonicalJson({ ...snapshot, draftSchemaVersion: agentDraftSchemaVersion, draftRevision }),
    content_hash: hashJson(snapshot),
    notes: `Debug run of draft revision ${draftRevision}`,
    interrupt_runs: 0,
    published_by: actor,
    published_at: services.now().toISOString(),
    draft_config: null,
  };
  if (!(await insertRelease(transaction, release)))
    throw new ConflictError('debug-conflict', 'Another debug run of this app started at the same time; try again.');
  return release;
}
