import type { Queryable } from '../../adapters/database/queryable.js';
import {
  deleteMember,
  findMember,
  findUserIdByEmail,
  hasAnotherOwner,
  insertMember,
  listMembers,
  updateMemberRole,
} from '../../adapters/database/repositories/member-repository.js';
import { ConflictError, ForbiddenError, notFoundError, ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** A role in a space, weakest first (D-P6). */
export type MemberRole = 'viewer' | 'editor' | 'admin' | 'owner';

/** What the member use cases work with. */
export type MemberContext = Pick<PlatformContext, 'database' | 'now'>;

/** Only an owner may make or unmake owners; admins manage the other roles. */
function checkOwnerChange(actorRole: MemberRole, from: MemberRole | undefined, to: MemberRole | undefined): void {
  if ((from === 'owner' || to === 'owner') && actorRole !== 'owner')
    throw new ForbiddenError('forbidden', 'Your role does not allow changing owners.', { needed: 'owner' });
}

async function ensureAnotherOwner(database: Queryable, spaceId: string, userId: string): Promise<void> {
  if (!(await hasAnotherOwner(database, spaceId, userId)))
    throw new ConflictError('last-owner', 'A space must keep at least one owner.');
}

/** The space's members and roles. */
export function spaceMembers(context: Pick<PlatformContext, 'database'>, spaceId: string) {
  return listMembers(context.database, spaceId);
}

/** Adds an existing user (by email) with a role; `owner` only by an owner. */
export async function addMember(context: MemberContext, spaceId: string, actorRole: MemberRole, email: string, role: MemberRole) {
  checkOwnerChange(actorRole, undefined, role);
  const member = await context.database.transaction().execute(async (transaction) => {
    const userId = await findUserIdByEmail(transaction, email);
    if (!userId) throw new ValidationError('unknown-user', 'No user has that email; an instance admin creates accounts first.');
    if (await findMember(transaction, spaceId, userId))
      throw new ConflictError('already-member', 'The user is a member already.');
    await insertMember(transaction, spaceId, userId, role, context.now().toISOString());
    return findMember(transaction, spaceId, userId);
  });
  if (!member) throw notFoundError('The member');
  return member;
}

/** Changes a member's role; a space keeps at least one owner. */
export function changeMemberRole(
  context: MemberContext,
  spaceId: string,
  actorRole: MemberRole,
  userId: string,
  role: MemberRole,
) {
  return context.database.transaction().execute(async (transaction) => {
    const existing = await findMember(transaction, spaceId, userId);
    if (!existing) throw notFoundError('The member');
    checkOwnerChange(actorRole, existing.role, role);
    if (existing.role === 'owner' && role !== 'owner') await ensureAnotherOwner(transaction, spaceId, userId);
    await updateMemberRole(transaction, spaceId, userId, role);
    return { ...existing, role };
  });
}

/** Removes a member; a space keeps at least one owner. */
export async function removeMember(
  context: MemberContext,
  spaceId: string,
  actorRole: MemberRole,
  userId: string,
): Promise<void> {
  await context.database.transaction().execute(async (transaction) => {
    const existing = await findMember(transaction, spaceId, userId);
    if (!existing) throw notFoundError('The member');
    checkOwnerChange(actorRole, existing.role, undefined);
    if (existing.role === 'owner') await ensureAnotherOwner(transaction, spaceId, userId);
    await deleteMember(transaction, spaceId, userId);
  });
}
