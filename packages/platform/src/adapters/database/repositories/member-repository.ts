import type { Queryable } from '../queryable.js';

type Role = 'viewer' | 'editor' | 'admin' | 'owner';

function memberQuery(database: Queryable, spaceId: string) {
  return database
    .selectFrom('space_members')
    .innerJoin('users', 'users.id', 'space_members.user_id')
    .select([
      'users.id as userId',
      'users.email',
      'users.display_name as displayName',
      'space_members.role',
      'space_members.created_at as createdAt',
    ])
    .where('space_members.space_id', '=', spaceId);
}

/** The space's members with their user's email and name, oldest first. */
export function listMembers(database: Queryable, spaceId: string) {
  return memberQuery(database, spaceId).orderBy('space_members.created_at').execute();
}

/** One member of the space, or undefined. */
export function findMember(database: Queryable, spaceId: string, userId: string) {
  return memberQuery(database, spaceId).where('space_members.user_id', '=', userId).executeTakeFirst();
}

/** The id of the user with this email (stored lower-case), or undefined. */
export async function findUserIdByEmail(database: Queryable, email: string): Promise<string | undefined> {
  const user = await database.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
  return user?.id;
}

export async function insertMember(database: Queryable, spaceId: string, userId: string, role: Role, at: string): Promise<void> {
  await database.insertInto('space_members').values({ space_id: spaceId, user_id: userId, role, created_at: at }).execute();
}

export async function updateMemberRole(database: Queryable, spaceId: string, userId: string, role: Role): Promise<void> {
  await database
    .updateTable('space_members')
    .set({ role })
    .where('space_id', '=', spaceId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(database: Queryable, spaceId: string, userId: string): Promise<void> {
  await database.deleteFrom('space_members').where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
}

/** Whether the space has an owner other than `userId`. */
export async function hasAnotherOwner(database: Queryable, spaceId: string, userId: string): Promise<boolean> {
  const others = await database
    .selectFrom('space_members')
    .select('user_id')
    .where('space_id', '=', spaceId)
    .where('role', '=', 'owner')
    .where('user_id', '!=', userId)
    .execute();
  return others.length > 0;
}
