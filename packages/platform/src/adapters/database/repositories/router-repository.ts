import type { Queryable } from '../queryable.js';
import type { RouterSessionRow } from '../schema.js';

/*
 * Router apps (issue 33): the apps a router draft names, its releases' insertion, and the
 * per-session dialogue state the platform holds for each conversation.
 */

/** The apps of a space among `appIds`, with their newest release version, for router validation. */
export async function readRouterTargets(database: Queryable, spaceId: string, appIds: readonly string[]) {
  if (appIds.length === 0) return [];
  return database
    .selectFrom('apps')
    .leftJoin('app_releases', 'app_releases.id', 'apps.latest_release_id')
    .select(['apps.id', 'apps.kind', 'apps.state', 'apps.latest_release_id', 'app_releases.version'])
    .where('apps.space_id', '=', spaceId)
    .where('apps.id', 'in', [...appIds])
    .execute();
}

/** The router session `id` of router app `appId`, or undefined. */
export function findRouterSession(database: Queryable, appId: string, id: string): Promise<RouterSessionRow | undefined> {
  return database.selectFrom('router_sessions').selectAll().where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
}

/** Records a new router session (no turn yet). */
export async function insertRouterSession(database: Queryable, row: RouterSessionRow): Promise<void> {
  await database.insertInto('router_sessions').values(row).execute();
}

/** Records a turn of a session's transcript. */
export async function insertRouterTurn(
  database: Queryable,
  turn: { sessionId: string; turn: number; text: string; result: string; at: string },
): Promise<void> {
  await database
    .insertInto('router_turns')
    .values({ session_id: turn.sessionId, turn: turn.turn, text: turn.text, result: turn.result, created_at: turn.at })
    .execute();
}

/** A session's transcript, oldest turn first. */
export function listRouterTurns(database: Queryable, sessionId: string) {
  return database.selectFrom('router_turns').selectAll().where('session_id', '=', sessionId).orderBy('turn').execute();
}

/** Saves a session's state after a turn, only over the turn count read; answers whether it did. */
export async function saveRouterSessionTurn(
  database: Queryable,
  id: string,
  turnsRead: number,
  state: string,
  at: string,
): Promise<boolean> {
  const result = await database
    .updateTable('router_sessions')
    .set({ state, turns: turnsRead + 1, updated_at: at })
    .where('id', '=', id)
    .where('turns', '=', turnsRead)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
