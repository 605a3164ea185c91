import type { Context } from 'hono';
import type { AppRow, RunRow, SessionRow, SpaceRow } from '../adapters/database/index.js';
import { findApp } from '../adapters/database/repositories/app-repository.js';
import { readRunWithApp } from '../adapters/database/repositories/run-repository.js';
import { findSession } from '../adapters/database/repositories/session-repository.js';
import { findSpace, roleInSpace } from '../adapters/database/repositories/space-repository.js';
import { ApiError, forbidden, notFound } from './api-error.js';
import { requirePrincipal } from './authentication.js';
import { actorOf } from './principal.js';
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
  'runs.use': 'viewer',
  'runs.log': 'editor',
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
  requirePrincipal(c);
  const space = await findSpace(c.get('services').database, spaceId);
  if (!space) throw notFound('The space');
  return { space, role: await authorizeRole(c, spaceId, action) };
}

/**
 * The caller's role in a space known to exist, checked against `action` (`authorizeSpace` without
 * reading the space: an app's space exists while the app does, since `apps.space_id` references it
 * and a space is deleted empty — one read less on every app and run route, issue 34).
 */
async function authorizeRole(c: Context<PlatformEnvironment>, spaceId: string, action: SpaceAction): Promise<SpaceRole> {
  const principal = requirePrincipal(c);
  let role: SpaceRole | undefined;
  if (principal.kind === 'user') {
    role =
      (await roleInSpace(c.get('services').database, spaceId, principal.userId)) ??
      (principal.isInstanceAdmin ? 'owner' : undefined);
  } else if (principal.spaceId === spaceId) {
    if (principal.kind === 'app-key') {
      throw new ApiError(403, 'forbidden', 'App API keys may only start and follow runs of their app.');
    }
    role = spaceKeyRole;
  }
  if (!role) throw notFound('The space');
  const needed = minimumRoleOf[action];
  if (spaceRoles.indexOf(role) < spaceRoles.indexOf(needed)) throw forbidden(action, { role, needed });
  return role;
}

/**
 * The app `appId` as the request's key read it with itself (`authentication.ts`), once: the
 * first authorisation of the request takes it; a later one, or another id, reads the row anew.
 */
function takeSubjectApp(c: Context<PlatformEnvironment>, appId: string): AppRow | undefined {
  const subject = c.get('subject');
  if (!subject || !('app' in subject) || subject.app !== appId) return undefined;
  c.set('subject', undefined);
  return subject.row;
}

/** `takeSubjectApp` for the run `runId` and its app. */
function takeSubjectRun(c: Context<PlatformEnvironment>, runId: string) {
  const subject = c.get('subject');
  if (!subject || !('run' in subject) || subject.run !== runId) return undefined;
  c.set('subject', undefined);
  return subject.row;
}

/** Loads an app and authorises `action` in its space; an app the caller cannot see is a 404. */
export async function authorizeApp(
  c: Context<PlatformEnvironment>,
  appId: string,
  action: SpaceAction,
): Promise<{ app: AppRow; role: SpaceRole }> {
  requirePrincipal(c);
  const app = takeSubjectApp(c, appId) ?? (await findApp(c.get('services').database, appId));
  if (!app) throw notFound('The app');
  const role = await notFoundAs('The app', () => authorizeRole(c, app.space_id, action));
  return { app, role };
}

/**
 * Runs `check`, answering any 404 inside it (the space, the app, the session) as a 404 of `what`,
 * so that the answer never tells which part the caller could not see.
 */
async function notFoundAs<T>(what: string, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound(what);
    throw error;
  }
}

/**
 * Authorises a "use" route of an app (PLATFORM.md §4.4, ⚑): members by their role, space keys as
 * editors, and app keys of this very app (never of another app). An app the caller cannot see is
 * a 404, like everywhere else. `seesAllSessions` says whether the caller may see every session of
 * the app (D-P6: editors and above, and space keys, which act as editors) or only the sessions it
 * started itself (viewers; app keys, which stand for one integration).
 */
export async function authorizeAppUse(
  c: Context<PlatformEnvironment>,
  appId: string,
  action: SpaceAction = 'runs.use',
): Promise<{ app: AppRow; seesAllSessions: boolean }> {
  requirePrincipal(c);
  const app = takeSubjectApp(c, appId) ?? (await findApp(c.get('services').database, appId));
  if (!app) throw notFound('The app');
  return authorizeUseOf(c, app, action);
}

/** `authorizeAppUse` of an app row already read (a run's, read with it in one statement). */
async function authorizeUseOf(
  c: Context<PlatformEnvironment>,
  app: AppRow,
  action: SpaceAction,
): Promise<{ app: AppRow; seesAllSessions: boolean }> {
  const principal = requirePrincipal(c);
  if (principal.kind === 'app-key') {
    if (app.space_id !== principal.spaceId) throw notFound('The app');
    if (app.id !== principal.appId || action !== 'runs.use')
      throw new ApiError(403, 'forbidden', 'App API keys may only start and follow runs of their app.');
    return { app, seesAllSessions: false };
  }
  const role = await notFoundAs('The app', () => authorizeRole(c, app.space_id, action));
  return { app, seesAllSessions: spaceRoles.indexOf(role) >= spaceRoles.indexOf('editor') };
}

/** Whether a caller restricted to its own sessions (D-P6) started this session. */
function startedBy(c: Context<PlatformEnvironment>, createdBy: string): boolean {
  return createdBy === actorOf(requirePrincipal(c));
}

/**
 * Loads a run's index row and authorises a use route of its app; a run the caller cannot see is a
 * 404 — also a run of another member's session for a caller who sees only its own (D-P6).
 */
export async function authorizeRun(c: Context<PlatformEnvironment>, runId: string): Promise<{ run: RunRow; app: AppRow }> {
  requirePrincipal(c);
  const { database } = c.get('services');
  const found = takeSubjectRun(c, runId) ?? (await readRunWithApp(database, runId));
  if (!found) throw notFound('The run');
  const { run } = found;
  return notFoundAs('The run', async () => {
    const { app, seesAllSessions } = await authorizeUseOf(c, found.app, 'runs.use');
    if (!seesAllSessions && !startedBy(c, run.requested_by)) {
      const session = await findSession(database, run.session_id);
      if (!session || !startedBy(c, session.created_by)) throw notFound('The run');
    }
    return { run, app };
  });
}

/**
 * Loads a session and authorises a use route of its app; a session the caller cannot see is a
 * 404 — also another member's session for a caller who sees only its own (D-P6).
 */
export async function authorizeSession(
  c: Context<PlatformEnvironment>,
  sessionId: string,
): Promise<{ session: SessionRow; app: AppRow }> {
  requirePrincipal(c);
  const session = await findSession(c.get('services').database, sessionId);
  if (!session) throw notFound('The session');
  return notFoundAs('The session', async () => {
    const { app, seesAllSessions } = await authorizeAppUse(c, session.app_id);
    if (!seesAllSessions && !startedBy(c, session.created_by)) throw notFound('The session');
    return { session, app };
  });
}
