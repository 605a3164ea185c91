import { prepareQuery } from '../prepared-query.js';
import type { Queryable } from '../queryable.js';
import type { SpaceRow } from '../schema.js';

/** The spaces the user is a member of, with the user's role, oldest first. */
export function listSpacesOfUser(database: Queryable, userId: string) {
  return database
    .selectFrom('spaces')
    .innerJoin('space_members', 'space_members.space_id', 'spaces.id')
    .selectAll('spaces')
    .select('space_members.role')
    .where('space_members.user_id', '=', userId)
    .orderBy('spaces.created_at')
    .execute();
}

/** Inserts a space and makes `ownerId` its owner. */
export async function insertSpaceWithOwner(database: Queryable, row: SpaceRow, ownerId: string): Promise<void> {
  await database.insertInto('spaces').values(row).execute();
  await database
    .insertInto('space_members')
    .values({ space_id: row.id, user_id: ownerId, role: 'owner', created_at: row.created_at })
    .execute();
}

export async function renameSpace(database: Queryable, spaceId: string, name: string): Promise<void> {
  await database.updateTable('spaces').set({ name }).where('id', '=', spaceId).execute();
}

/** Which of the space's tables hold rows (apps, resources, model connections): a space is deleted empty. */
export async function tablesHoldingRowsOf(database: Queryable, spaceId: string) {
  const counts = await Promise.all(
    (['apps', 'resources', 'model_connections'] as const).map(async (table) => ({
      table,
      rows: (await database.selectFrom(table).select('id').where('space_id', '=', spaceId).limit(1).execute()).length,
    })),
  );
  return counts.filter((count) => count.rows > 0).map((count) => count.table);
}

export async function deleteSpace(database: Queryable, spaceId: string): Promise<void> {
  await database.deleteFrom('spaces').where('id', '=', spaceId).execute();
}

/** The space `spaceId`, or undefined. */
export async function findSpace(database: Queryable, spaceId: string): Promise<SpaceRow | undefined> {
  return (await spaceById(database, spaceId))[0];
}

const spaceById = prepareQuery((database, spaceId: string) =>
  database.selectFrom('spaces').selectAll().where('id', '=', spaceId),
);

/** The user's role in the space, or undefined when not a member. */
export async function roleInSpace(database: Queryable, spaceId: string, userId: string) {
  const membership = await database
    .selectFrom('space_members')
    .select('role')
    .where('space_id', '=', spaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return membership?.role;
}
