import { randomUUID } from 'node:crypto';
import { findSession, insertSession, updateSessionTitle } from '../../adapters/database/repositories/session-repository.js';
import type { AppRow, SessionRow } from '../../adapters/database/schema.js';
import { appDeletingError, NotFoundError, ValidationError } from '../../domain/errors.js';
import type { PlatformContext } from '../context.js';

/** What a new empty session may carry. */
export interface NewSession {
  title?: string | undefined;
  externalUserId?: string | undefined;
}

/**
 * Makes an empty session of an app before its first run (PLATFORM.md §4.4, issue 36), for a
 * client that wants the id first (a chat list, an integration's own user): later runs and
 * messages continue it with `sessionId`. It belongs to its creator like a session a run made
 * (D-P6: viewers and app keys see only theirs). A router has its own conversations (409
 * `router-sessions`); an app being deleted takes none (409 `app-deleting`).
 */
export async function createEmptySession(
  context: Pick<PlatformContext, 'database' | 'now'>,
  app: AppRow,
  actor: string,
  input: NewSession,
): Promise<SessionRow> {
  if (app.state !== 'active') throw appDeletingError();
  if (app.kind === 'router')
    throw new ValidationError('router-sessions', 'A router keeps its own conversations: send it a message instead.');
  const at = context.now().toISOString();
  const id = `ses_${randomUUID()}`;
  await insertSession(context.database, {
    id,
    space_id: app.space_id,
    app_id: app.id,
    kind: 'agent',
    created_by: actor,
    created_at: at,
    last_run_at: at,
    title: input.title ?? null,
    external_user_id: input.externalUserId ?? null,
  });
  const row = await findSession(context.database, id);
  if (!row) throw new NotFoundError('not-found', 'The session was not found.');
  return row;
}

/** Renames a session (`null` clears the title); its runs are untouched. */
export async function renameSession(
  context: Pick<PlatformContext, 'database'>,
  session: SessionRow,
  title: string | null,
): Promise<SessionRow> {
  const row = await updateSessionTitle(context.database, session.id, title);
  if (!row) throw new NotFoundError('not-found', 'The session was not found.');
  return row;
}
