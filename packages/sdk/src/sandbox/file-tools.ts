import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { type Tool, type ToolExecutionContext, tool } from '../capabilities/tools/tool.js';
import {
  descriptorPath,
  listEntries,
  openRegularFile,
  readLimited,
  replaceFile,
  withDirectory,
  withParentDirectory,
} from './confined-fs.js';
import { type FileVersion, sameVersion } from './file-read-ledger.js';
import { grepFiles } from './grep-files.js';
import {
  FileEditConflictError,
  FileNotFoundError,
  FileNotReadError,
  FileTooLargeError,
  WorkspaceAccessError,
} from './sandbox-errors.js';
import type { Workspace } from './workspace.js';
import { type ResolvedEntry, resolveVirtualPath, type WorkspaceView } from './workspace-view.js';

const pathDescription =
  'A path in the workspace: relative paths start in /work (your writable work directory); skills are read-only under /skills/<name>.';

/** Resolves a model path against the calling run's view; only the trusted context picks the view (F-2). */
async function resolveFor(workspace: Workspace, context: ToolExecutionContext, path: string) {
  const view = await workspace.prepare({ sessionId: context.sessionId, runId: context.runId });
  return { view, resolved: resolveVirtualPath(view, path) };
}

function fileEntry(resolved: ReturnType<typeof resolveVirtualPath>, path: string): ResolvedEntry {
  if (resolved.kind !== 'entry' || resolved.segments.length === 0) throw new FileNotFoundError(path, 'is a directory');
  return resolved;
}

function writableEntry(resolved: ReturnType<typeof resolveVirtualPath>, path: string): ResolvedEntry {
  if (resolved.kind !== 'entry' || !resolved.mount.writable) {
    throw new WorkspaceAccessError('read-only', path, 'only /work (and writable mounts) can be changed');
  }
  return fileEntry(resolved, path);
}

/** Reads a whole regular file of the view through the confined operations, with the version read. */
export async function readViewFile(entry: ResolvedEntry, maximumBytes: number) {
  return withParentDirectory(entry, false, async (directory, name) => {
    const handle = await openRegularFile(directory, name as string, entry.virtualPath);
    if (!handle) throw new FileNotFoundError(entry.virtualPath);
    try {
      return { ...(await readLimited(handle, maximumBytes)), version: versionOf(await handle.stat({ bigint: true })) };
    } finally {
      await handle.close();
    }
  });
}

/** The version of a view file now, or `undefined` when there is none. */
async function currentVersion(entry: ResolvedEntry): Promise<FileVersion | undefined> {
  return withParentDirectory(entry, false, async (directory, name) => {
    const handle = await openRegularFile(directory, name as string, entry.virtualPath);
    if (!handle) return undefined;
    try {
      return versionOf(await handle.stat({ bigint: true }));
    } finally {
      await handle.close();
    }
  }).catch((error: unknown) => {
    if (FileNotFoundError.isInstance(error)) return undefined;
    throw error;
  });
}

function versionOf(status: { ino: bigint; size: bigint; mtimeNs: bigint }): FileVersion {
  return { ino: status.ino.toString(), size: status.size.toString(), mtimeNs: status.mtimeNs.toString() };
}

/**
 * Write only what was read (N-15): an existing file may be replaced or edited only when this run
 * read it and it has not changed since. A file that does not exist yet may be created.
 */
async function assertReadBeforeWrite(workspace: Workspace, context: ToolExecutionContext, entry: ResolvedEntry) {
  const ledger = workspace.readLedger({ sessionId: context.sessionId, runId: context.runId });
  if (!ledger) return;
  const now = await currentVersion(entry);
  if (!now) return;
  const seen = await ledger.seen(entry.virtualPath);
  if (!seen) throw new FileNotReadError(entry.virtualPath, 'not-read');
  if (!sameVersion(seen, now)) throw new FileNotReadError(entry.virtualPath, 'changed');
}

/** Remembers the version of `entry` this run now knows, after reading or writing it. */
async function rememberVersion(workspace: Workspace, context: ToolExecutionContext, entry: ResolvedEntry, version?: FileVersion) {
  const ledger = workspace.readLedger({ sessionId: context.sessionId, runId: context.runId });
  const known = version ?? (ledger ? await currentVersion(entry) : undefined);
  if (ledger && known) await ledger.remember(entry.virtualPath, known);
}

/** Writes a file of the view atomically, recording its previous content first (N-6). */
async function writeViewFile(
  workspace: Workspace,
  view: WorkspaceView,
  context: ToolExecutionContext,
  entry: ResolvedEntry,
  content: Buffer,
  createDirectories: boolean,
) {
  const log = workspace.checkpointLog(view.scope);
  return withParentDirectory(entry, createDirectories, (directory, name) =>
    replaceFile(directory, name as string, entry.virtualPath, content, {
      ...(entry.mount.owner ? { owner: entry.mount.owner } : {}),
      ...(log
        ? {
            maximumPreviousBytes: workspace.limits.editBytes,
            beforeReplace: async (previous) => {
              await log.record(
                { runId: context.runId, sessionId: context.sessionId, operationId: context.operationId, path: entry.virtualPath },
                previous,
              );
            },
          }
        : {}),
    }),
  );
}

/**
 * The model's file tools over a workspace (F-2): `list_files`, `grep_files`, `read_file`,
 * `write_file` and `edit_file`. Every path is resolved inside the calling run's view; traversal,
 * absolute host paths, links and hard links are refused with `WorkspaceAccessError`. Writes are
 * atomic (temporary file + rename) and checkpointed.
 */
export function createFileTools(workspace: Workspace): Tool[] {
  const listFiles = tool({
    name: 'list_files',
    description: 'Lists a directory of the workspace (default /work). Links are shown, never followed.',
    parameters: z.object({ path: z.string().default('/work').describe(pathDescription) }),
    execute: async ({ path }, context) => {
      const { resolved } = await resolveFor(workspace, context, path);
      if (resolved.kind === 'mount-directory') return resolved.entries.map((name) => `${name}/`).join('\n');
      return withDirectory(resolved, async (directory) => {
        const lines: string[] = [];
        for (const entry of await listEntries(directory)) {
          if (entry.type === 'directory') lines.push(`${entry.name}/`);
          else if (entry.type === 'file')
            lines.push(`${entry.name} (${(await lstat(descriptorPath(directory, entry.name))).size} bytes)`);
          else lines.push(`${entry.name} (${entry.type})`);
        }
        return lines.length > 0 ? lines.join('\n') : '(empty directory)';
      });
    },
  });

  const readFile = tool({
    name: 'read_file',
    description: 'Reads a text file of the workspace. Use offset and limit (in lines) for long files.',
    parameters: z.object({
      path: z.string().describe(pathDescription),
      offset: z.number().int().min(1).optional().describe('First line to return, from 1.'),
      limit: z.number().int().min(1).optional().describe('Most lines to return.'),
    }),
    execute: async ({ path, offset, limit }, context) => {
      const { resolved } = await resolveFor(workspace, context, path);
      const entry = fileEntry(resolved, path);
      const { content, size, truncated, version } = await readViewFile(entry, workspace.limits.readBytes);
      await rememberVersion(workspace, context, entry, version);
      if (content.subarray(0, 8192).includes(0)) return `[binary file of ${size} bytes; not shown]`;
      let lines = content.toString('utf8').split('\n');
      const first = (offset ?? 1) - 1;
      lines = lines.slice(first, limit === undefined ? undefined : first + limit);
      const note = truncated ? `\n[only the first ${content.length} of ${size} bytes were read]` : '';
      return `${lines.join('\n')}${note}`;
    },
  });

  const writeFile = tool({
    name: 'write_file',
    description: 'Creates or replaces a file in /work with the given text. Parent directories are created.',
    parameters: z.object({ path: z.string().describe(pathDescription), content: z.string() }),
    execute: async ({ path, content }, context) => {
      const { view, resolved } = await resolveFor(workspace, context, path);
      const entry = writableEntry(resolved, path);
      const data = Buffer.from(content, 'utf8');
      await assertReadBeforeWrite(workspace, context, entry);
      await writeViewFile(workspace, view, context, entry, data, true);
      await rememberVersion(workspace, context, entry);
      return `wrote ${data.length} bytes to ${entry.virtualPath}`;
    },
  });

  const editFile = tool({
    name: 'edit_file',
    description: 'Replaces exact text in a file of /work. oldText must appear exactly once unless replaceAll is true.',
    parameters: z.object({
      path: z.string().describe(pathDescription),
      oldText: z.string().min(1),
      newText: z.string(),
      replaceAll: z.boolean().default(false),
    }),
    execute: async ({ path, oldText, newText, replaceAll }, context) => {
      const { view, resolved } = await resolveFor(workspace, context, path);
      const entry = writableEntry(resolved, path);
      await assertReadBeforeWrite(workspace, context, entry);
      const { content, size, truncated } = await readViewFile(entry, workspace.limits.editBytes);
      if (truncated) throw new FileTooLargeError(entry.virtualPath, size, workspace.limits.editBytes, 'edit_file');
      const text = content.toString('utf8');
      const occurrences = text.split(oldText).length - 1;
      if (occurrences === 0 || (occurrences > 1 && !replaceAll)) throw new FileEditConflictError(entry.virtualPath, occurrences);
      const updated = replaceAll ? text.split(oldText).join(newText) : text.replace(oldText, () => newText);
      await writeViewFile(workspace, view, context, entry, Buffer.from(updated, 'utf8'), false);
      await rememberVersion(workspace, context, entry);
      return `replaced ${replaceAll ? occurrences : 1} occurrence(s) in ${entry.virtualPath}`;
    },
  });

  const grep = tool({
    name: 'grep_files',
    description: 'Searches the text files under a workspace directory (default /work) for a text, line by line.',
    parameters: z.object({
      pattern: z.string().min(1).describe('The text to find (a regular expression when regex is true).'),
      path: z.string().default('/work').describe(pathDescription),
      regex: z.boolean().default(false),
      ignoreCase: z.boolean().default(false),
    }),
    execute: async ({ pattern, path, regex, ignoreCase }, context) => {
      const { resolved } = await resolveFor(workspace, context, path);
      if (resolved.kind !== 'entry')
        throw new WorkspaceAccessError('outside-view', path, 'search inside /work, /skills/<name> or /mounts/<name>');
      const report = await grepFiles(resolved, { pattern, regex, ignoreCase, maximumMatches: workspace.limits.grepMatches });
      return report;
    },
  });

  return [listFiles, grep, readFile, writeFile, editFile];
}
