import { useQuery } from '@tanstack/react-query';
import { api, queryKeys, type Schema, unwrap } from '../api/index.js';

/** A space role, weakest first. */
export type SpaceRole = 'viewer' | 'editor' | 'admin' | 'owner';
const roleRank: Record<SpaceRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** The query of the signed-in user and their spaces (a 401 problem when the session is gone). */
export const meQuery = { queryKey: queryKeys.me(), queryFn: () => unwrap(api.GET('/auth/me')) };

/** The signed-in user and their spaces (a 401 problem when the session is gone). */
export function useMe() {
  return useQuery(meQuery);
}

/** The signed-in user's answer type. */
export type Me = Schema<'Me'>;

/** What the signed-in user's role in a space allows, so pages disable what the server would refuse. */
export function useSpaceAccess(spaceId: string | undefined) {
  const me = useMe();
  const role = me.data?.spaces.find((space) => space.id === spaceId)?.role;
  const atLeast = (needed: SpaceRole) => role !== undefined && roleRank[role] >= roleRank[needed];
  return { role, canEdit: atLeast('editor'), canAdminister: atLeast('admin'), isOwner: atLeast('owner') };
}
