import type { Context } from 'hono';
import type { AppRow, SpaceRow } from '../database/index.js';
import { ApiError, forbidden, notFound } from './api-error.js';
import { requirePrincipal } from './authentication.js';
import type { PlatformEnvironment } from './services.js';

/** A member's role in a space (D-P6), from least to most powerful. */
export type SpaceRole = 'viewer' | 'editor' | 'admin' | 'owner';

/** The roles in order of power. */
export const spaceRoles: readonly SpaceRole[] = ['viewer', 'editor', 'admin', 'owner'];

/**
 * Every action a space-scoped route performs and the least role that may perform it. This table
 * is the whole authorisation policy: every route goes through `authorizeSpace` with one of these.
 */
export const minimumRoleOf = {
  'space.read': 'viewer',
  'space.update': 'admin',
  'space.delete': 'owner',
  'members.read': 'viewer',
  'members.manage': 'admin',
  'space-keys.manage': 'admin',
  'connections.read': 'viewer',
  'connections.manage': 'admin',
  'secrets.read': 'viewer',
  'secrets.manage': 'admin',
  'resources.read': 'viewer',
  'resources.manage': 'editor',
  'apps.read': 'viewer',
  'apps.manage': 'editor',
  'apps.publish': 'editor',
  'apps.delete': 'admin',
  'app-keys.manage': 'admin',
} as const satisfies Record<string, SpaceRole>;

/** An action of `minimumRoleOf`. */
export type SpaceAction = keyof typeof minimumRoleOf;

/** The least role space API keys act with: they build and publish, never manage people or keys. */
const spaceKeyRole: SpaceRole = 'editor';

/**
 * Authorises the caller for `action` in a space. A caller who cannot see the space gets the same
 * 404 as for a space that does not exist (ids of other spaces reveal nothing); a member whose
 * role is too low gets 403. Instance administrators act as owners everywhere. App keys may only
 * use their app's "use" routes (issue 14), so every route here refuses them.
 */
export async function authorizeSpace(
  c: Context<PlatformEnvironment>,
  spaceId: string,
  action: SpaceAction,
): Promise<{ space: SpaceRow; role: SpaceRole }> {
  const principal = requirePrincipal(c);
  const { database } = c.get('services');
  const space = await database.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
  if (!space) throw notFound('The space');
  let role: SpaceRole | undefined;
  if (principal.kind === 'user') {
    const membership = await database
      .selectFrom('space_members')
      .select('role')
      .where('space_id', '=', spaceId)
      .where('user_id', '=', principal.userId)
      .executeTakeFirst();
    role = membership?.role ?? (principal.isInstanceAdmin ? 'owner' : undefined);
  } else if (principal.spaceId === spaceId) {
    if (principal.kind === 'app-key') {
      throw new ApiError(403, 'forbidden', 'App API keys may only start and follow runs of their app.');
    }
    role = spaceKeyRole;
  }
  if (!role) throw notFound('The space');
  const needed = minimumRoleOf[action];
  if (spaceRoles.indexOf(role) < spaceRoles.indexOf(needed)) throw forbidden(action, { role, needed });
  return { space, role };
}

/** Loads an app and authorises `action` in its space; an app the caller cannot see is a 404. */
export async function authorizeApp(
  c: Context<PlatformEnvironment>,
  appId: string,
  action: SpaceAction,
): Promise<{ app: AppRow; role: SpaceRole }> {
  requirePrincipal(c);
  const app = await c.get('services').database.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
  if (!app) throw notFound('The app');
  try {
    const { role } = await authorizeSpace(c, app.space_id, action);
    return { app, role };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound('The app');
    throw error;
  }
}
