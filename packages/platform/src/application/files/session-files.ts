import { createFileArea, createWorkspace, type FileArea } from '@agentloom/sdk';
import type { AppRow, SessionRow } from '../../adapters/database/schema.js';

/**
 * A session's work directory with the persistent sandbox on (P-12.8), read-only: where the SDK's
 * workspace keeps it below the app's file root (`sessions/<session>/work`), found through the
 * SDK's own layout rather than rebuilt here. Without a persistent sandbox it is never made, and
 * reads as an empty folder.
 */
export function sessionFileArea(app: Pick<AppRow, 'file_root'>, session: Pick<SessionRow, 'id'>): FileArea {
  const directory = createWorkspace({ root: app.file_root, persistent: true }).workDirectory({
    sessionId: session.id,
    runId: session.id,
  });
  return createFileArea({ directory, name: 'work' });
}
