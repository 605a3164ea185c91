import { newId } from '../../adapters/crypto/index.js';
import type { AppDeletionRow, AppRow } from '../../adapters/database/schema.js';
import { ConflictError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/**
 * Starts deleting an app (P-13.1, NOT-21): in one transaction the app becomes `deleting` (from
 * then on new runs, chat messages and supplements are refused with a conflict `app-deleting`, and
 * workers start no new work of it) and its durable deletion job is recorded at the first step.
 * Idempotent: asking again answers the job already under way (or done). An agent app that a
 * published workflow release calls is refused with a conflict `app-in-use` listing those workflows
 * (D-P4): their releases pin it, and their runs would fail.
 */
export async function requestAppDeletion(services: PlatformContext, app: AppRow, requestedBy: string): Promise<AppDeletionRow> {
  return services.database.transaction().execute(async (transaction) => {
    if (app.kind === 'agent' && app.state === 'active') {
      const users = await transaction
        .selectFrom('app_resource_refs')
        .innerJoin('apps', 'apps.id', 'app_resource_refs.app_id')
        .innerJoin('app_releases', 'app_releases.id', 'app_resource_refs.release_id')
        .select(['apps.id as appId', 'apps.name as name', 'app_releases.version as releaseVersion'])
        .where('app_resource_refs.target_kind', '=', 'agent-app')
        .where('app_resource_refs.resource_id', '=', app.id)
        .orderBy('apps.name')
        .orderBy('app_releases.version')
        .execute();
      if (users.length > 0) {
        const workflows = new Map<string, { appId: string; name: string; releaseVersions: number[] }>();
        for (const user of users) {
          const entry = workflows.get(user.appId) ?? { appId: user.appId, name: user.name, releaseVersions: [] };
          entry.releaseVersions.push(user.releaseVersion);
          workflows.set(user.appId, entry);
        }
        throw new ConflictError('app-in-use', 'Published workflow releases call this agent; delete those workflows first.', {
          workflows: [...workflows.values()],
        });
      }
    }
    const at = services.now().toISOString();
    await transaction
      .updateTable('apps')
      .set({ state: 'deleting', updated_at: at })
      .where('id', '=', app.id)
      .where('state', '=', 'active')
      .execute();
    await transaction
      .insertInto('app_deletions')
      .values({
        id: newId('del'),
        app_id: app.id,
        space_id: app.space_id,
        app_name: app.name,
        step: 'stopping-runs',
        runs_total: 0,
        runs_deleted: 0,
        attempts: 0,
        last_error: null,
        worker_id: null,
        lease_until: null,
        requested_by: requestedBy,
        created_at: at,
        updated_at: at,
        finished_at: null,
      })
      .onConflict((conflict) => conflict.column('app_id').doNothing())
      .execute();
    return transaction.selectFrom('app_deletions').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
  });
}

/** A deletion as `GET /apps/:appId/deletion` shows it. */
export function deletionView(row: AppDeletionRow) {
  return {
    id: row.id,
    appId: row.app_id,
    appName: row.app_name,
    step: row.step,
    done: row.step === 'done',
    runsTotal: row.runs_total,
    runsDeleted: row.runs_deleted,
    attempts: row.attempts,
    lastError: row.last_error,
    requestedBy: row.requested_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
