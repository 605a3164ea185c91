import type { Queryable } from '../../adapters/database/queryable.js';
import { readDraftRow } from '../../adapters/database/repositories/draft-repository.js';
import { readRouterTargets } from '../../adapters/database/repositories/router-repository.js';
import type { AppReleaseRow, AppRow } from '../../adapters/database/schema.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import {
  checkRouterDraft,
  type RouterDraftCheck,
  type RouterReleaseSnapshot,
  routerDraftSchemaVersion,
  routerReferences,
} from '../../domain/router-draft.js';
import type { PlatformContext } from '../context.js';
import { publishSnapshot } from '../releases/save-release.js';

/** Checks a router draft the way a publish does: the catalog, then every app its actions name (in the router's space only). */
export async function checkRouter(database: Queryable, app: AppRow, draft: Record<string, unknown>): Promise<RouterDraftCheck> {
  const rows = await readRouterTargets(database, app.space_id, routerReferences(draft));
  const apps = new Map(
    rows.map((row) => [
      row.id,
      { kind: row.kind, state: row.state, latestReleaseId: row.latest_release_id, latestVersion: row.version ?? null },
    ]),
  );
  return checkRouterDraft(draft, { apps });
}

/**
 * Publishes a router's draft (issue 33): every issue refuses it with a validation error
 * `draft-invalid` listing them (an action naming an app of another space is `not-found`, an
 * unpublished one `unpublished`); otherwise one transaction saves the immutable release — the
 * catalog and the release version each target app had — and makes it the router's newest. A
 * router has no runs of its own, so a publish interrupts nothing; conversations in progress
 * use the new catalog from their next turn.
 */
export async function publishRouterRelease(
  services: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  actor: string,
  notes: string,
): Promise<AppReleaseRow> {
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
  return services.database.transaction().execute(async (transaction) => {
    const draftRow = await readDraftRow(transaction, app.id);
    const draft = JSON.parse(draftRow.config) as Record<string, unknown>;
    const checked = await checkRouter(transaction, app, draft);
    if (!checked.compiled)
      throw new ValidationError('draft-invalid', 'The draft cannot be published; fix every issue listed.', {
        issues: checked.issues,
      });
    const catalog = checked.compiled.catalog;
    const rows = await readRouterTargets(transaction, app.space_id, routerReferences(draft));
    const targets: RouterReleaseSnapshot['targets'] = Object.fromEntries(
      rows.map((row) => [row.id, { kind: row.kind as 'agent' | 'workflow', releaseVersion: row.version ?? 0 }]),
    );
    const snapshot: RouterReleaseSnapshot = {
      schemaVersion: 1,
      kind: 'router',
      name: app.name,
      description: app.description,
      catalog,
      targets,
      interruptsRunsInProgress: false,
    };
    return publishSnapshot(transaction, {
      appId: app.id,
      snapshot,
      draftSchemaVersion: routerDraftSchemaVersion,
      draftRevision: draftRow.revision,
      notes,
      interruptRuns: false,
      actor,
      publishedAt: services.now().toISOString(),
      references: [],
    });
  });
}
