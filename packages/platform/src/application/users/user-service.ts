import { hashPassword } from '../../adapters/crypto/index.js';
import {
  createUser,
  deleteWebSessionsOf,
  EmailTakenError,
  findUser,
  listKeysMadeBy,
  listUsers,
  revokeKeysMadeBy,
  updateUser,
  withCreators,
} from '../../adapters/identity/index.js';
import { ConflictError, notFoundError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** What the user use cases work with. */
export type UserContext = Pick<PlatformContext, 'database' | 'now'>;

/** A change of an account by an instance admin. */
export interface UserChange {
  displayName?: string | undefined;
  password?: string | undefined;
  status?: 'active' | 'disabled' | undefined;
  isInstanceAdmin?: boolean | undefined;
  revokeApiKeys?: boolean | undefined;
}

/** Every account of the instance. */
export function allUsers(context: Pick<PlatformContext, 'database'>) {
  return listUsers(context.database);
}

/** Creates a local account; a conflict `email-taken` when the email has one. */
export async function createAccount(
  context: UserContext,
  values: { email: string; displayName: string; password: string; isInstanceAdmin: boolean },
) {
  try {
    return await createUser(context.database, { ...values, now: context.now() });
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ConflictError('email-taken', error.message);
    throw error;
  }
}

/**
 * Changes an account: name, password, status, instance admin. An admin cannot disable or demote
 * themself; a disabled account or a new password ends every console session of that user, and
 * `revokeApiKeys` revokes the keys they made (answered with their creators).
 */
export async function changeAccount(context: UserContext, actorId: string, userId: string, change: UserChange) {
  if (userId === actorId && (change.status === 'disabled' || change.isInstanceAdmin === false))
    throw new ConflictError('cannot-demote-self', 'An instance admin cannot disable or demote their own account.');
  return context.database.transaction().execute(async (transaction) => {
    const existing = await findUser(transaction, userId);
    if (!existing) throw notFoundError('The user');
    const changes = {
      ...(change.displayName !== undefined ? { display_name: change.displayName } : {}),
      ...(change.password !== undefined ? { password_hash: await hashPassword(change.password) } : {}),
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.isInstanceAdmin !== undefined ? { is_instance_admin: change.isInstanceAdmin ? 1 : 0 } : {}),
    };
    if (Object.keys(changes).length > 0) await updateUser(transaction, userId, changes);
    if (change.status === 'disabled' || change.password !== undefined) await deleteWebSessionsOf(transaction, userId);
    const revokedKeys = change.revokeApiKeys ? await revokeKeysMadeBy(transaction, userId, context.now()) : [];
    const row = await findUser(transaction, userId);
    if (!row) throw notFoundError('The user');
    return { row, revoked: await withCreators(transaction, revokedKeys) };
  });
}

/** Every API key a user made, in any space, with their creators; `not-found` for an unknown user. */
export async function keysMadeBy(context: Pick<PlatformContext, 'database'>, userId: string) {
  const user = await findUser(context.database, userId);
  if (!user) throw notFoundError('The user');
  return withCreators(context.database, await listKeysMadeBy(context.database, user.id));
}
