import { randomUUID } from 'node:crypto';
import { InvalidRunRequestError } from '@agentloom/sdk';
import type { Transaction } from 'kysely';
import { prepareQuery } from '../../adapters/database/prepared-query.js';
import { hashJson } from '../../adapters/database/repositories/resource-repository.js';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';
import { createDebugRelease } from '../releases/publish-release.js';
import { recordWebhook } from '../webhooks/index.js';
import { requirementsOfRelease } from './run-requirements.js';
import { activeRunOf, assertAppActive, insertSessionAndRunOfApp, lockSession } from './run-session.js';

/** What a caller asks for when starting a run. */
export interface RunRequest {
  sessionId?: string | undefined;
  /** Text for an agent; an object (an update of the workflow's state) for a workflow. */
  input: string | Record<string, unknown>;
  variables?: Record<string, string> | undefined;
  /** Where to POST the signed completion webhook when the run ends (the app needs a webhook secret). */
  webhookUrl?: string | undefined;
  /** A workflow run's release (D-P1); absent: the newest release when a worker starts it (D-P5). */
  releaseVersion?: number | undefined;
  /** `draft`: a console editor's debug run of the saved draft, in a debug session (PLATFORM.md §4.4). */
  release?: 'latest' | 'draft' | undefined;
}

/** The run a request resolved to: new, or the one an earlier request with the same key made. */
export interface StartedRun {
  runId: string;
  sessionId: string;
  created: boolean;
}

/**
 * Starts a run of an app (PLATFORM.md §4.4), all in one transaction of the platform database:
 * the idempotency key (same key and body → the first run; another body → a validation error
 * `idempotency-key-reused`), the session (new, or an existing one locked so that two requests
 * never both see it idle), the one-active-run rule (a conflict `run-active` with its run id, S-2), the
 * run's index row and its job. The SDK run is recorded (pending, input once) before the commit,
 * so a stop or a supplement that arrives before any worker finds the run there; the run id is
 * minted once here and every dispatch reuses it (R-3 keeps the input single).
 */
export async function startAppRun(
  services: PlatformContext,
  app: AppRow,
  actor: string,
  request: RunRequest,
  idempotencyKey: string | undefined,
  visibility: { seesAllSessions: boolean } = { seesAllSessions: true },
): Promise<StartedRun> {
  const debug = request.release === 'draft';
  assertAppRunnable(app, debug);
  assertInputFits(app, request);
  // The request's digest is compared only under an Idempotency-Key.
  const requestHash =
    idempotencyKey === undefined
      ? ''
      : hashJson({
          sessionId: request.sessionId ?? null,
          input: request.input,
          variables: request.variables ?? {},
          ...(request.webhookUrl !== undefined ? { webhookUrl: request.webhookUrl } : {}),
          ...(request.releaseVersion !== undefined ? { releaseVersion: request.releaseVersion } : {}),
          ...(debug ? { release: 'draft' } : {}),
        });
  const started = await services.database.transaction().execute(async (transaction): Promise<StartedRun> => {
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
          throw new ValidationError('idempotency-key-reused', 'This Idempotency-Key was used with another request body.', {
            runId: first.run_id,
          });
        return { runId: first.run_id, sessionId: first.session_id, created: false };
      }
    }
    // A new session on PostgreSQL checks and locks the app with its own insert (`insertRun`).
    if (request.sessionId !== undefined || services.dialect !== 'postgres')
      await assertAppActive(transaction, services.dialect, app.id);
    if (request.sessionId !== undefined) {
      await lockSession(
        transaction,
        services.dialect,
        app,
        request.sessionId,
        debug ? 'debug' : 'agent',
        visibility.seesAllSessions ? undefined : actor,
      );
      const active = await activeRunOf(transaction, services, request.sessionId);
      if (active)
        throw new ConflictError('run-active', 'The session has an active run; send a supplement instead.', { runId: active });
    }
    if (request.webhookUrl !== undefined) {
      const secret = await transaction
        .selectFrom('app_webhook_secrets')
        .select('app_id')
        .where('app_id', '=', app.id)
        .executeTakeFirst();
      if (!secret)
        throw new ValidationError('webhook-secret-missing', "Create the app's webhook secret before asking for a webhook.");
    }
    const debugRelease = debug ? await createDebugRelease(services, transaction, app, actor) : undefined;
    await insertRun(
      transaction,
      services,
      app,
      actor,
      { ...request, sessionId },
      runId,
      request.sessionId === undefined,
      debugRelease?.id,
    );
    if (request.webhookUrl !== undefined)
      await recordWebhook(transaction, services, { runId, appId: app.id, url: request.webhookUrl });
    return { runId, sessionId, created: true };
  });
  // Committed: this process's workers claim it now rather than at their next idle poll (issue 34).
  if (started.created) services.dispatcher.announce();
  return started;
}

/**
 * Refuses a request that does not fit the app's kind with a validation error `invalid-input`: an agent takes
 * text, a workflow an object (an update of its state). Only a workflow run may pin a release
 * (D-P1: an agent run always uses the newest release), else a validation error `release-pin-not-allowed`.
 */
function assertInputFits(app: AppRow, request: RunRequest): void {
  if (app.kind === 'router')
    throw new ValidationError(
      'router-not-runnable',
      'A router has no runs of its own; send it messages with POST /routers/{appId}/messages.',
    );
  if (app.kind === 'agent') {
    if (typeof request.input !== 'string')
      throw new ValidationError('invalid-input', 'An agent run takes text input.', { path: 'input' });
    if (request.releaseVersion !== undefined)
      throw new ValidationError(
        'release-pin-not-allowed',
        'Agent runs always use the newest release; only workflow runs pin one.',
      );
  } else if (typeof request.input !== 'object' || request.input === null || Array.isArray(request.input))
    throw new ValidationError('invalid-input', 'A workflow run takes an object: the values of its state fields.', {
      path: 'input',
    });
}

/** The release a workflow run pins (`releaseVersion`), or null: a validation error `release-not-found` when the app has no such release. */
async function pinnedReleaseOf(
  transaction: Transaction<PlatformDatabase>,
  app: AppRow,
  releaseVersion: number | undefined,
): Promise<string | null> {
  if (releaseVersion === undefined) return null;
  const release = await transaction
    .selectFrom('app_releases')
    .select('id')
    .where('app_id', '=', app.id)
    .where('kind', '=', 'release')
    .where('version', '=', releaseVersion)
    .executeTakeFirst();
  if (!release) throw new ValidationError('release-not-found', `The app has no release ${releaseVersion}.`, { releaseVersion });
  return release.id;
}

/**
 * Refuses a run of an app that cannot run: an app being deleted (NOT-21), an unpublished app (a
 * debug run of an agent's draft needs no release; workflow drafts have no debug runs yet).
 */
export function assertAppRunnable(app: AppRow, debug = false): void {
  if (debug && app.kind !== 'agent')
    throw new ValidationError('not-yet-supported', 'Debug runs of the draft are for agent apps; publish the workflow to run it.');
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
  if (!app.latest_release_id && !debug) throw new ConflictError('app-not-published', 'Publish the app before starting runs.');
}

/** A new session's row (every run of a new session writes one: compiled once). */
const insertSession = prepareQuery(
  (database, id: string, spaceId: string, appId: string, kind: 'debug' | 'agent', createdBy: string, at: string) =>
    database
      .insertInto('sessions')
      .values({ id, space_id: spaceId, app_id: appId, kind, created_by: createdBy, created_at: at, last_run_at: at }),
);

/** A new run's index row (every run writes one: compiled once). */
const insertRunRow = prepareQuery(
  (
    database,
    id: string,
    spaceId: string,
    appId: string,
    sessionId: string,
    releaseId: string | null,
    requestedBy: string,
    at: string,
  ) =>
    database.insertInto('runs').values({
      id,
      space_id: spaceId,
      app_id: appId,
      session_id: sessionId,
      release_id: releaseId,
      stop_cause: null,
      requested_by: requestedBy,
      created_at: at,
    }),
);

/**
 * Records a new run inside the caller's transaction: the session (created when `newSession`,
 * else its activity time), the run's index row, its job and the SDK's pending run (input once,
 * so a stop or a supplement that arrives before any worker finds it there). The caller has
 * checked that the session has no active run, and that the app is active, except for a new
 * session on PostgreSQL: its insert, with the run's, checks that and locks the app itself
 * (`insertSessionAndRunOfApp`).
 */
export async function insertRun(
  transaction: Transaction<PlatformDatabase>,
  services: PlatformContext,
  app: AppRow,
  actor: string,
  request: RunRequest & { sessionId: string },
  runId: string,
  newSession: boolean,
  debugReleaseId?: string,
): Promise<void> {
  const at = services.now().toISOString();
  const { sessionId } = request;
  const kind = debugReleaseId ? 'debug' : 'agent';
  // A debug run is bound to its draft snapshot now; a pinned workflow release is the run's from
  // the start; otherwise the release is resolved when a worker first starts the run (D-P5) and
  // kept for every later dispatch (P-6.5).
  const releaseId = debugReleaseId ?? (await pinnedReleaseOf(transaction, app, request.releaseVersion));
  if (newSession && services.dialect === 'postgres') {
    await insertSessionAndRunOfApp(transaction, app.id, { id: sessionId, kind, createdBy: actor, at }, { id: runId, releaseId });
  } else {
    if (newSession) await insertSession(transaction, sessionId, app.space_id, app.id, kind, actor, at);
    else await transaction.updateTable('sessions').set({ last_run_at: at }).where('id', '=', sessionId).execute();
    await insertRunRow(transaction, runId, app.space_id, app.id, sessionId, releaseId, actor, at);
  }
  // A queued run starts on the app's newest release (D-P5), so that release says what it needs;
  // the worker checks again at start, as a newer release may need more.
  await services.dispatcher.enqueue(transaction, runId, await requirementsOfRelease(transaction, app.latest_release_id));
  try {
    await services.runClient.createRun({
      runId,
      sessionId,
      // A router never gets here (assertInputFits): only agents and workflows have runs.
      kind: app.kind === 'workflow' ? 'workflow' : 'agent',
      name: app.name,
      input: request.input,
      ...(request.variables ? { variables: request.variables } : {}),
      // `userId` scopes the facts of agents with memory (N-15) to the user who started the run.
      metadata: { appId: app.id, spaceId: app.space_id, userId: actor, ...(debugReleaseId ? { debug: 'true' } : {}) },
    });
  } catch (error) {
    if (error instanceof InvalidRunRequestError) throw new ValidationError('invalid-run-request', error.message);
    throw error;
  }
}
