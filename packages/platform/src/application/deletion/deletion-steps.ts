import { rm } from 'node:fs/promises';
import path from 'node:path';
import { RunNotFinishedError, RunNotFoundError } from '@agentloom/sdk';
import type { PlatformContext } from '../context.js';

/** What the deletion job uses: the database, the SDK store and client, the data directory and lease, the logger, the clock. */
export type DeletionContext = Pick<PlatformContext, 'database' | 'runClient' | 'runStore' | 'config' | 'logger' | 'now'>;

import type { AppDeletionRow } from '../../adapters/database/schema.js';
import { stopRun } from '../runs/stop-runs.js';

/** Thrown when the job's lease passed to another process: this one stops touching the job. */
export class DeletionLeaseLostError extends Error {
  constructor(deletionId: string) {
    super(`The deletion ${deletionId} is continued by another process.`);
    this.name = 'DeletionLeaseLostError';
  }
}

/** What a step needs: the services, the job, and a check that the job is still this process's. */
export interface StepContext {
  services: DeletionContext;
  deletion: AppDeletionRow;
  /** Throws `DeletionLeaseLostError` once the lease is lost or the platform closes. */
  assertOwned(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Step 1 (P-13.1.1): durably stops every unfinished run of the app (cause `app-deleted`, through
 * the SDK journal, so a queued run ends at once, a running run at its owner's next admission
 * check and an orphaned run as soon as a worker settles it) and waits until the SDK reports all
 * of them ended. Runs are listed again on every round, so a run committed just before the app
 * became `deleting` is stopped too. Idempotent: an ended run is skipped.
 */
export async function stopAndSettleRuns(context: StepContext): Promise<void> {
  const { services, deletion } = context;
  let waitMs = 25;
  for (;;) {
    context.assertOwned();
    const runs = await services.database.selectFrom('runs').select('id').where('app_id', '=', deletion.app_id).execute();
    await services.database
      .updateTable('app_deletions')
      .set({ runs_total: runs.length, updated_at: services.now().toISOString() })
      .where('id', '=', deletion.id)
      .execute();
    let unfinished = 0;
    for (const { id } of runs) {
      let description: Awaited<ReturnType<typeof services.runClient.describeRun>>;
      try {
        description = await services.runClient.describeRun(id);
      } catch (error) {
        if (error instanceof RunNotFoundError) continue;
        throw error;
      }
      if (description.status !== 'pending' && description.status !== 'running') continue;
      if (!description.stopRequest || description.status === 'pending') {
        await stopRun(services, id, 'app-deleted', deletion.requested_by);
        const after = await services.runClient.describeRun(id);
        if (after.status !== 'pending' && after.status !== 'running') continue;
      }
      unfinished += 1;
    }
    if (unfinished === 0) return;
    await sleep(waitMs);
    waitMs = Math.min(500, waitMs * 2);
  }
}

/**
 * Step 2 (P-13.1.2, P-13.2): deletes the app's SDK runs and sessions through `RunClient`, which
 * leaves a tombstone per run, so a late write or a takeover of a deleted run is refused. Runs of
 * the app the platform index does not name (found by the run's `appId` label) go as well.
 * Idempotent: a session already deleted answers `RunNotFoundError`, which counts as done.
 */
export async function deleteSdkRuns(context: StepContext): Promise<void> {
  const { services, deletion } = context;
  const { runClient, database } = services;
  const sessions = await database.selectFrom('sessions').select('id').where('app_id', '=', deletion.app_id).execute();
  let deleted = deletion.runs_deleted;
  const progress = async (count: number) => {
    if (count === 0) return;
    deleted += count;
    await database
      .updateTable('app_deletions')
      .set({ runs_deleted: deleted, updated_at: services.now().toISOString() })
      .where('id', '=', deletion.id)
      .execute();
  };
  for (const { id } of sessions) {
    context.assertOwned();
    try {
      await progress((await runClient.deleteSession(id)).deleted.length);
    } catch (error) {
      if (error instanceof RunNotFinishedError) {
        // Cannot happen while new runs are refused; if it does, settle again and retry once.
        await stopAndSettleRuns(context);
        await progress((await runClient.deleteSession(id)).deleted.length);
      } else if (!(error instanceof RunNotFoundError)) throw error;
    }
  }
  for (;;) {
    context.assertOwned();
    const page = await runClient.listRuns({ metadata: { appId: deletion.app_id }, limit: 100 });
    if (page.items.length === 0) return;
    for (const item of page.items) {
      try {
        await runClient.deleteRun(item.runId);
        await progress(1);
      } catch (error) {
        if (!(error instanceof RunNotFoundError)) throw error;
      }
    }
  }
}

/**
 * Step 3 (P-13.3): deletes the app's own file root (business files, wiki, session and run work
 * directories, persistent-sandbox files). Only a directory inside the data directory is ever
 * removed. Idempotent: a missing directory is fine.
 */
export async function deleteAppFiles(context: StepContext): Promise<void> {
  const { services, deletion } = context;
  const app = await services.database.selectFrom('apps').select('file_root').where('id', '=', deletion.app_id).executeTakeFirst();
  if (!app) return;
  const root = path.resolve(services.config.dataDirectory);
  const target = path.resolve(app.file_root);
  if (!target.startsWith(`${root}${path.sep}`)) {
    services.logger.warn({ deletionId: deletion.id, fileRoot: target }, 'app file root outside the data directory: left alone');
    return;
  }
  context.assertOwned();
  await rm(target, { recursive: true, force: true });
}

/**
 * Step 4 (P-13.3): removes the app's rows in one transaction — its references to shared
 * resources (`app_resource_refs`: the connections, prompts, skills and tools themselves remain),
 * keys, draft, releases, sessions, runs and jobs (foreign keys cascade) and the app — and marks
 * the job done. Fenced by the lease: only the job's holder finishes it.
 */
export async function removeAppRows(context: StepContext, workerId: string): Promise<boolean> {
  const { services, deletion } = context;
  context.assertOwned();
  return services.database.transaction().execute(async (transaction) => {
    const at = services.now().toISOString();
    const marked = await transaction
      .updateTable('app_deletions')
      .set({ step: 'done', finished_at: at, updated_at: at, worker_id: null, lease_until: null, last_error: null })
      .where('id', '=', deletion.id)
      .where('worker_id', '=', workerId)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return false;
    await transaction.deleteFrom('app_resource_refs').where('app_id', '=', deletion.app_id).execute();
    await transaction.deleteFrom('api_keys').where('app_id', '=', deletion.app_id).execute();
    await transaction.deleteFrom('apps').where('id', '=', deletion.app_id).execute();
    return true;
  });
}
