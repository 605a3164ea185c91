import type { Kysely } from 'kysely';
import { hashPassword, newId } from '../crypto/index.js';
import type { Queryable } from '../database/queryable.js';
import type { PlatformDatabase } from '../database/schema.js';

/** Thrown when an email is already taken. */
export class EmailTakenError extends Error {
  readonly code = 'email-taken';
  constructor(email: string) {
    super(`A user with the email ${email} exists already.`);
    this.name = 'EmailTakenError';
  }
}

/** Creates a local account with a scrypt password hash (used by the API, `create-admin` and first start). */
export async function createUser(
  database: Kysely<PlatformDatabase>,
  values: { email: string; displayName: string; password: string; isInstanceAdmin: boolean; now: Date },
) {
  const email = values.email.trim().toLowerCase();
  const existing = await database.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new EmailTakenError(email);
  const row = {
    id: newId('usr'),
    email,
    display_name: values.displayName,
    password_hash: await hashPassword(values.password),
    is_instance_admin: values.isInstanceAdmin ? 1 : 0,
    status: 'active' as const,
    created_at: values.now.toISOString(),
  };
  await database.insertInto('users').values(row).execute();
  return row;
}

/** Every user, oldest first. */
export function listUsers(database: Queryable) {
  return database.selectFrom('users').selectAll().orderBy('created_at').execute();
}

/** The user `userId`, or undefined. */
export function findUser(database: Queryable, userId: string) {
  return database.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The user with this email (stored lower-case), or undefined. */
export function findUserByEmail(database: Queryable, email: string) {
  return database.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function updateUser(
  database: Queryable,
  userId: string,
  changes: Partial<{ display_name: string; password_hash: string; status: 'active' | 'disabled'; is_instance_admin: number }>,
): Promise<void> {
  await database.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/** Ends every console session of the user. */
export async function deleteWebSessionsOf(database: Queryable, userId: string): Promise<void> {
  await database.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
}

/** Every API key the user made, in any space, oldest first. */
export function listKeysMadeBy(database: Queryable, userId: string) {
  return database.selectFrom('api_keys').selectAll().where('created_by', '=', userId).orderBy('created_at').execute();
}
