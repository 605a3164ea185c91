import type { Insertable } from 'kysely';
import type { Queryable } from '../queryable.js';
import type { SessionRow } from '../schema.js';
import type { SessionsTable } from '../schema-runs.js';

/**
 * The app's chat sessions (never the debug sessions of the editor's draft runs), most recently
 * active first; only those `createdBy` started when given (viewers and app keys, D-P6).
 */
export function listAppSessions(
  database: Queryable,
  appId: string,
  options: { createdBy?: string | undefined; limit: number },
): Promise<SessionRow[]> {
  let query = database.selectFrom('sessions').selectAll().where('app_id', '=', appId).where('kind', '=', 'agent');
  if (options.createdBy !== undefined) query = query.where('created_by', '=', options.createdBy);
  return query.orderBy('last_run_at', 'desc').limit(options.limit).execute();
}

/** The session `sessionId`, or undefined. */
export function findSession(database: Queryable, sessionId: string): Promise<SessionRow | undefined> {
  return database.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

/** Records a session before its first run (`POST /apps/{appId}/sessions`). */
export async function insertSession(database: Queryable, row: Insertable<SessionsTable>): Promise<void> {
  await database.insertInto('sessions').values(row).execute();
}

/** Changes a session's title; answers the row as it is now. */
export async function updateSessionTitle(
  database: Queryable,
  sessionId: string,
  title: string | null,
): Promise<SessionRow | undefined> {
  await database.updateTable('sessions').set({ title }).where('id', '=', sessionId).execute();
  return findSession(database, sessionId);
}
