import { randomUUID } from 'node:crypto';
import { InvalidRunRequestError } from '@agentloom/sdk';
import type { Transaction } from 'kysely';
import type { AppRow, PlatformDatabase } from '../database/schema.js';
import { ApiError } from '../http/api-error.js';
import type { PlatformServices } from '../http/services.js';
import { hashJson } from '../resources/resource-repository.js';
import { requirementsOfRelease } from './run-requirements.js';

/** What a caller asks for when starting a run. */
export interface RunRequest {
  sessionId?: string | undefined;
  input: string;
  variables?: Record<string, string> | undefined;
}

/** The run a request resolved to: new, or the one an earlier request with the same key made. */
export interface StartedRun {
  runId: string;
  sessionId: string;
  created: boolean;
}

/**
 * Starts a run of an app (PLATFORM.md §4.4), all in one transaction of the platform database:
 * the idempotency key (same key and body → the first run; another body → 422
 * `idempotency-key-reused`), the session (new, or an existing one locked so that two requests
 * never both see it idle), the one-active-run rule (409 `run-active` with its run id, S-2), the
 * run's index row and its job. The SDK run is recorded (pending, input once) before the commit,
 * so a stop or a supplement that arrives before any worker finds the run there; the run id is
 * minted once here and every dispatch reuses it (R-3 keeps the input single).
 */
export async function startAppRun(
  services: PlatformServices,
  app: AppRow,
  actor: string,
  request: RunRequest,
  idempotencyKey: string | undefined,
): Promise<StartedRun> {
  assertAppRunnable(app);
  const requestHash = hashJson({
    sessionId: request.sessionId ?? null,
    input: request.input,
    variables: request.variables ?? {},
  });
  return services.database.transaction().execute(async (transaction) => {
    const runId = `run_${randomUUID()}`;
    const sessionId = request.sessionId ?? `ses_${randomUUID()}`;
    if (idempotencyKey !== undefined) {
      const inserted = await transaction
        .insertInto('idempotency_keys')
        .values({
          principal: actor,
          app_id: app.id,
          key: idempotencyKey,
          request_hash: requestHash,
          run_id: runId,
          session_id: sessionId,
          created_at: services.now().toISOString(),
        })
        .onConflict((conflict) => conflict.doNothing())
        .returning('key')
        .execute();
      if (inserted.length === 0) {
        const first = await transaction
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('principal', '=', actor)
          .where('app_id', '=', app.id)
          .where('key', '=', idempotencyKey)
          .executeTakeFirstOrThrow();
        if (first.request_hash !== requestHash)
          throw new ApiError(422, 'idempotency-key-reused', 'This Idempotency-Key was used with another request body.', {
            runId: first.run_id,
          });
        return { runId: first.run_id, sessionId: first.session_id, created: false };
      }
    }
    await assertAppActive(transaction, services.dialect, app.id);
    if (request.sessionId !== undefined) {
      await lockSession(transaction, services.dialect, app, request.sessionId);
      const active = await activeRunOf(transaction, services, request.sessionId);
      if (active)
        throw new ApiError(409, 'run-active', 'The session has an active run; send a supplement instead.', { runId: active });
    }
    await insertRun(transaction, services, app, actor, { ...request, sessionId }, runId, request.sessionId === undefined);
    return { runId, sessionId, created: true };
  });
}

/** Refuses a run of an app that cannot run: a workflow (not yet), an app being deleted (NOT-21), an unpublished app. */
export function assertAppRunnable(app: AppRow): void {
  if (app.kind !== 'agent') throw new ApiError(422, 'not-yet-supported', 'Workflow apps run once the workflow editor lands.');
  if (app.state !== 'active') throw new ApiError(409, 'app-deleting', 'The app is being deleted.');
  if (!app.latest_release_id) throw new ApiError(409, 'app-not-published', 'Publish the app before starting runs.');
}

/**
 * Re-reads the app's state inside the transaction that records a run (PostgreSQL: `FOR SHARE`,
 * which waits for a deletion that is marking the app right now): a deletion that committed
 * first refuses the run with 409 `app-deleting` (NOT-21); one that commits after sees the run
 * and stops it.
 */
export async function assertAppActive(
  transaction: Transaction<PlatformDatabase>,
  dialect: PlatformServices['dialect'],
  appId: string,
): Promise<void> {
  let query = transaction.selectFrom('apps').select('state').where('id', '=', appId);
  if (dialect === 'postgres') query = query.forShare();
  const app = await query.executeTakeFirst();
  if (!app) throw new ApiError(404, 'not-found', 'The app was not found.');
  if (app.state !== 'active') throw new ApiError(409, 'app-deleting', 'The app is being deleted.');
}

/**
 * The session's active run (queued or running in the SDK store), if any: only its newest run can
 * be active, because a session never has two at once (S-2). Call it with the session locked.
 */
export async function activeRunOf(
  transaction: Transaction<PlatformDatabase>,
  services: PlatformServices,
  sessionId: string,
): Promise<string | undefined> {
  const latest = await transaction
    .selectFrom('runs')
    .select('id')
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return undefined;
  const stored = await services.runStore.getRun(latest.id);
  return stored && (stored.status === 'pending' || stored.status === 'running') ? latest.id : undefined;
}

/**
 * Records a new run inside the caller's transaction: the session (created when `newSession`,
 * else its activity time), the run's index row, its job and the SDK's pending run (input once,
 * so a stop or a supplement that arrives before any worker finds it there). The caller has
 * checked that the session has no active run.
 */
export async function insertRun(
  transaction: Transaction<PlatformDatabase>,
  services: PlatformServices,
  app: AppRow,
  actor: string,
  request: RunRequest & { sessionId: string },
  runId: string,
  newSession: boolean,
): Promise<void> {
  const at = services.now().toISOString();
  const { sessionId } = request;
  if (newSession) {
    await transaction
      .insertInto('sessions')
      .values({ id: sessionId, space_id: app.space_id, app_id: app.id, created_by: actor, created_at: at, last_run_at: at })
      .execute();
  } else {
    await transaction.updateTable('sessions').set({ last_run_at: at }).where('id', '=', sessionId).execute();
  }
  await transaction
    .insertInto('runs')
    .values({
      id: runId,
      space_id: app.space_id,
      app_id: app.id,
      session_id: sessionId,
      release_id: null,
      stop_cause: null,
      requested_by: actor,
      created_at: at,
    })
    .execute();
  // A queued run starts on the app's newest release (D-P5), so that release says what it needs;
  // the worker checks again at start, as a newer release may need more.
  await services.dispatcher.enqueue(transaction, runId, await requirementsOfRelease(transaction, app.latest_release_id));
  try {
    await services.runClient.createRun({
      runId,
      sessionId,
      kind: 'agent',
      name: app.name,
      input: request.input,
      ...(request.variables ? { variables: request.variables } : {}),
      metadata: { appId: app.id, spaceId: app.space_id },
    });
  } catch (error) {
    if (error instanceof InvalidRunRequestError) throw new ApiError(422, 'invalid-run-request', error.message);
    throw error;
  }
}

/** Locks the session row (PostgreSQL) so that concurrent starts in one session run one at a time; SQLite transactions already do. */
export async function lockSession(
  transaction: Transaction<PlatformDatabase>,
  dialect: PlatformServices['dialect'],
  app: AppRow,
  sessionId: string,
): Promise<void> {
  let query = transaction.selectFrom('sessions').select(['id', 'app_id']).where('id', '=', sessionId);
  if (dialect === 'postgres') query = query.forUpdate();
  const session = await query.executeTakeFirst();
  if (!session || session.app_id !== app.id) throw new ApiError(404, 'not-found', 'The session was not found.');
}
