import { removeFile, replaceFile, withParentDirectory } from './confined-fs.js';
import type { FileChange, FileCheckpointLog } from './file-checkpoints.js';
import { FileNotFoundError } from './sandbox-errors.js';
import { resolveVirtualPath, type WorkspaceView } from './workspace-view.js';

/** Which recorded changes to undo. With neither field, every recorded change is undone. */
export interface RollbackOptions {
  /** Undo changes with a greater sequence number. */
  afterSequence?: number;
  /** Undo changes recorded at or after this time (epoch ms), e.g. when a user message was accepted. */
  since?: number;
  /** Undo only changes made by this run (a persistent session log holds several runs). */
  runId?: string;
}

/** What a rollback did. */
export interface RollbackResult {
  /** Changes undone, newest first; their records are removed from the log. */
  restored: FileChange[];
  /** Changes that could not be undone (for example, the path became a link), with the reason. */
  failed: { change: FileChange; error: unknown }[];
}

/**
 * Undoes recorded file changes newest first (N-6), writing through the same confined operations
 * as the file tools (so a rollback can never be steered outside the view either). A file that did
 * not exist before its change is removed. Restores are not themselves recorded.
 */
export async function rollbackFiles(
  view: WorkspaceView,
  log: FileCheckpointLog,
  options: RollbackOptions,
): Promise<RollbackResult> {
  const selected = (await log.list())
    .filter((change) => options.afterSequence === undefined || change.sequence > options.afterSequence)
    .filter((change) => options.since === undefined || change.at >= options.since)
    .filter((change) => options.runId === undefined || change.runId === options.runId)
    .reverse();
  const result: RollbackResult = { restored: [], failed: [] };
  for (const change of selected) {
    const previous = await log.contentBefore(change.sequence);
    try {
      const entry = resolveVirtualPath(view, change.path);
      if (entry.kind !== 'entry') throw new FileNotFoundError(change.path, 'not a file path');
      await withParentDirectory(entry, previous !== undefined, async (directory, name) => {
        if (name === undefined) throw new FileNotFoundError(change.path, 'is a directory');
        if (previous === undefined) await removeFile(directory, name);
        else await replaceFile(directory, name, change.path, previous, entry.mount.owner ? { owner: entry.mount.owner } : {});
      });
    } catch (error) {
      // A file to remove whose directory is gone already is as good as removed.
      if (!(previous === undefined && FileNotFoundError.isInstance(error))) {
        result.failed.push({ change, error });
        continue;
      }
    }
    await log.discard([change.sequence]);
    result.restored.push(change);
  }
  return result;
}
