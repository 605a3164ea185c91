import type { Kysely } from 'kysely';
import { hashPassword, newId } from '../crypto/index.js';
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
