import type { Transaction } from 'kysely';
import { prepareQuery } from '../../adapters/database/prepared-query.js';
import type { AppRow, PlatformDatabase } from '../../adapters/database/schema.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/*
 * The guards of a run start and of a session message, inside their transaction: the app is
 * still active, the session is locked and of the right kind, and its active run (if any).
 */

/** An app's state, and the same read locking the row (PostgreSQL): asked by every run start (compiled once). */
const appState = prepareQuery((database, appId: string) => database.selectFrom('apps').select('state').where('id', '=', appId));
const appStateForShare = prepareQuery((database, appId: string) =>
  database.selectFrom('apps').select('state').where('id', '=', appId).forShare(),
);

/**
 * Re-reads the app's state inside the transaction that records a run (PostgreSQL: `FOR SHARE`,
 * which waits for a deletion that is marking the app right now): a deletion that committed
 * first refuses the run with a conflict `app-deleting` (NOT-21); one that commits after sees the run
 * and stops it.
 */
export async function assertAppActive(
  transaction: Transaction<PlatformDatabase>,
  dialect: PlatformContext['dialect'],
  appId: string,
): Promise<void> {
  const [app] = await (dialect === 'postgres' ? appStateForShare : appState)(transaction, appId);
  if (!app) throw new NotFoundError('not-found', 'The app was not found.');
  if (app.state !== 'active') throw new ConflictError('app-deleting', 'The app is being deleted.');
}

/**
 * A new session's row and its first run's index row, written only while their app is active,
 * which the session's insert locks (PostgreSQL): one statement, the run's insert reading the
 * session's (a data-modifying CTE); no session inserted, no run either (compiled once).
 */
const insertSessionAndRunOfActiveApp = prepareQuery(
  (
    database,
    session: string,
    appId: string,
    kind: 'debug' | 'agent',
    createdBy: string,
    at: string,
    runId: string,
    releaseId: string | null,
  ) =>
    database
      .with('session', (query) =>
        query
          .insertInto('sessions')
          .columns(['id', 'space_id', 'app_id', 'kind', 'created_by', 'created_at', 'last_run_at'])
          .expression((select) =>
            select
              .selectFrom('apps')
              .select((values) => [
                values.val(session).as('id'),
                'space_id',
                'id as app_id',
                values.val(kind).as('kind'),
                values.val(createdBy).as('created_by'),
                values.val(at).as('created_at'),
                values.val(at).as('last_run_at'),
              ])
              .where('id', '=', appId)
              .where('state', '=', 'active')
              .forShare(),
          )
          .returning(['id', 'space_id', 'app_id']),
      )
      .insertInto('runs')
      .columns(['id', 'space_id', 'app_id', 'session_id', 'release_id', 'stop_cause', 'requested_by', 'created_at'])
      .expression((select) =>
        select
          .selectFrom('session')
          .select((values) => [
            values.val(runId).as('id'),
            'space_id',
            'app_id',
            'id as session_id',
            values.val(releaseId).as('release_id'),
            values.val(null).as('stop_cause'),
            values.val(createdBy).as('requested_by'),
            values.val(at).as('created_at'),
          ]),
      )
      .returning('id'),
);

/**
 * Records a new session of an active app and its first run's index row on PostgreSQL:
 * `assertAppActive` and both inserts in one statement (issue 34). The session's `SELECT … FOR
 * SHARE` of the app waits for a deletion that is marking it, like `assertAppActive`'s; when it
 * inserts nothing, the app's state says why.
 */
export async function insertSessionAndRunOfApp(
  transaction: Transaction<PlatformDatabase>,
  appId: string,
  session: { id: string; kind: 'debug' | 'agent'; createdBy: string; at: string },
  run: { id: string; releaseId: string | null },
): Promise<void> {
  const inserted = await insertSessionAndRunOfActiveApp(
    transaction,
    session.id,
    appId,
    session.kind,
    session.createdBy,
    session.at,
    run.id,
    run.releaseId,
  );
  if (inserted.length > 0) return;
  await assertAppActive(transaction, 'postgres', appId);
  throw new ConflictError('app-deleting', 'The app is being deleted.');
}

/**
 * The session's active run (queued or running in the SDK store), if any: only its newest run can
 * be active, because a session never has two at once (S-2). Call it with the session locked.
 */
export async function activeRunOf(
  transaction: Transaction<PlatformDatabase>,
  services: PlatformContext,
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
 * Locks the session row (PostgreSQL) so that concurrent starts in one session run one at a time
 * (SQLite transactions already do), and refuses to mix debug and ordinary runs in one session.
 * With `startedBy`, only a session that actor started is found (D-P6).
 */
export async function lockSession(
  transaction: Transaction<PlatformDatabase>,
  dialect: PlatformContext['dialect'],
  app: AppRow,
  sessionId: string,
  kind: 'agent' | 'debug' = 'agent',
  startedBy?: string,
): Promise<void> {
  let query = transaction.selectFrom('sessions').select(['id', 'app_id', 'kind', 'created_by']).where('id', '=', sessionId);
  if (dialect === 'postgres') query = query.forUpdate();
  const session = await query.executeTakeFirst();
  // A caller who sees only its own sessions (D-P6) cannot continue another's: the same not-found.
  if (!session || session.app_id !== app.id || (startedBy !== undefined && session.created_by !== startedBy))
    throw new NotFoundError('not-found', 'The session was not found.');
  if (session.kind !== kind)
    throw new ConflictError(
      'session-kind-mismatch',
      session.kind === 'debug'
        ? 'This is a debug session of the draft: continue it with `release: "draft"`.'
        : 'A debug run of the draft cannot continue an ordinary session; start a new one.',
    );
}
