import type { Queryable } from '../database/queryable.js';

/** A console session: the hash of its cookie token, its user, its lifetime and where it came from. */
export interface NewWebSession {
  tokenHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

export async function insertWebSession(database: Queryable, session: NewWebSession): Promise<void> {
  await database
    .insertInto('web_sessions')
    .values({
      id: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt.toISOString(),
      expires_at: session.expiresAt.toISOString(),
      ip: session.ip,
      user_agent: session.userAgent,
    })
    .execute();
}

export async function deleteWebSession(database: Queryable, sessionId: string): Promise<void> {
  await database.deleteFrom('web_sessions').where('id', '=', sessionId).execute();
}

/** The spaces the user belongs to (id, name, role), oldest first. */
export function membershipsOf(database: Queryable, userId: string) {
  return database
    .selectFrom('space_members')
    .innerJoin('spaces', 'spaces.id', 'space_members.space_id')
    .select(['spaces.id', 'spaces.name', 'spaces.demo', 'space_members.role'])
    .where('space_members.user_id', '=', userId)
    .orderBy('spaces.created_at')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, demo: row.demo === 1 })));
}

/** The console session whose token hashes to `tokenHash`, with its user's id, email, admin flag and status. */
export function findWebSession(database: Queryable, tokenHash: string) {
  return database
    .selectFrom('web_sessions')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .select([
      'web_sessions.id as sessionId',
      'web_sessions.expires_at',
      'users.id',
      'users.email',
      'users.is_instance_admin',
      'users.status',
    ])
    .where('web_sessions.id', '=', tokenHash)
    .executeTakeFirst();
}
