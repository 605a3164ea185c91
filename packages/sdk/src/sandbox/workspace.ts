import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { Tool } from '../capabilities/tools/tool.js';
import { InvalidConfigurationError } from '../core/errors/index.js';
import type { RunStore } from '../store/run-store.js';
import { createCommandTool } from './command-tool.js';
import { openMountRoot } from './confined-fs.js';
import { FileCheckpointLog } from './file-checkpoints.js';
import { FileReadLedger } from './file-read-ledger.js';
import { type RollbackOptions, type RollbackResult, rollbackFiles } from './file-rollback.js';
import { createFileTools } from './file-tools.js';
import {
  type CleanupOutcome,
  cleanupRunDirectory,
  cleanupRunReadLedger,
  cleanupStaleRunDirectories,
  type StaleCleanupReport,
} from './run-directory-cleanup.js';
import type { Sandbox } from './sandbox.js';
import { checkpointDirectory, layout, readLedgerDirectory, runDirectory, workSegments } from './workspace-layout.js';
import { isSafeMountName, type MountBinding, type WorkspaceScope, type WorkspaceView } from './workspace-view.js';

/** Limits of the file and command tools. */
export interface WorkspaceLimits {
  /** Largest part of a file `read_file` returns. Default 256 KiB. */
  readBytes?: number;
  /** Most matches `grep_files` returns. Default 200. */
  grepMatches?: number;
  /** Wall-clock limit of one `run_command`. Default 8 s; keep it below `execution.toolTimeoutMs`. */
  commandTimeoutMs?: number;
  /** Output limit (stdout plus stderr) of one `run_command`. Default 64 KiB. */
  commandOutputBytes?: number;
  /**
   * Largest file `edit_file` edits, and largest existing file `write_file` replaces while
   * checkpoints are on (its content is recorded first). Default 4 MiB.
   */
  editBytes?: number;
  /**
   * Disk quota of a run's writable directories (`/work` and writable mounts), in allocated bytes:
   * a `run_command` that grows them past it is killed, and no single file it writes can pass it.
   * Default 1 GiB.
   */
  diskQuotaBytes?: number;
  /** Most processes and threads alive at once in one `run_command` (isolating sandboxes). Default 128. */
  commandProcesses?: number;
  /** Size of the memory-backed `/tmp` of one `run_command` (isolating sandboxes). Default 64 MiB. */
  commandTemporaryBytes?: number;
}

/** Options of `createWorkspace`. */
export interface WorkspaceOptions {
  /** The agent's file root (F-1), an absolute host directory; work directories and system records live under it. */
  root: string;
  /** Persistent sandbox switch (F-4): on keeps one work directory per session; off (default) uses a temporary one per run. */
  persistent?: boolean;
  /** Skill folders, shown read-only at `/skills/<name>` (K-2); `loadSkills(...).skills` fits. */
  skills?: readonly { name: string; directory: string }[];
  /** Other host directories, shown at `/mounts/<name>`; read-only unless `writable`. */
  mounts?: readonly { name: string; directory: string; writable?: boolean }[];
  /** Record file contents before each write or edit so that files can be rolled back (N-6). Default on. */
  checkpoints?: boolean;
  /**
   * Refuse to write or edit an existing file the run has not read, or that changed on disk since
   * it read it (N-15), with `FileNotReadError` the model can act on. Default on.
   */
  writeOnlyWhatWasRead?: boolean;
  /** Where `run_command` runs; without one there is no command tool. */
  sandbox?: Sandbox;
  limits?: WorkspaceLimits;
}

const mountName = z.string().refine(isSafeMountName, 'letters, digits, _, - and . only (not . or ..)');
const absoluteDirectory = z.string().refine(isAbsolute, 'must be an absolute path');
const optionsSchema = z
  .object({
    root: absoluteDirectory,
    persistent: z.boolean().default(false),
    skills: z.array(z.object({ name: mountName, directory: absoluteDirectory }).loose()).default([]),
    mounts: z
      .array(z.object({ name: mountName, directory: absoluteDirectory, writable: z.boolean().default(false) }).strict())
      .default([]),
    checkpoints: z.boolean().default(true),
    writeOnlyWhatWasRead: z.boolean().default(true),
    sandbox: z
      .custom<Sandbox>((value) => typeof (value as Sandbox | undefined)?.runCommand === 'function', 'must implement Sandbox')
      .optional(),
    limits: z
      .object({
        readBytes: z
          .number()
          .int()
          .positive()
          .default(256 * 1024),
        grepMatches: z.number().int().positive().default(200),
        commandTimeoutMs: z.number().int().positive().default(8_000),
        commandOutputBytes: z
          .number()
          .int()
          .positive()
          .default(64 * 1024),
        editBytes: z
          .number()
          .int()
          .positive()
          .default(4 * 1024 * 1024),
        diskQuotaBytes: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024 * 1024),
        commandProcesses: z.number().int().min(2).default(128),
        commandTemporaryBytes: z
          .number()
          .int()
          .positive()
          .default(64 * 1024 * 1024),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((options, context) => {
    for (const [key, list] of [
      ['skills', options.skills],
      ['mounts', options.mounts],
    ] as const) {
      const seen = new Set<string>();
      list.forEach((item, index) => {
        if (seen.has(item.name))
          context.addIssue({ code: 'custom', path: [key, index, 'name'], message: `duplicate name "${item.name}"` });
        seen.add(item.name);
      });
    }
  });

/** Resolved limits of a workspace. */
export type ResolvedWorkspaceLimits = Required<WorkspaceLimits>;

/**
 * An agent's file root with its mounts (F-1…F-5): for each run it builds the authorised view —
 * the session's (persistent) or run's (temporary) work directory, writable, at `/work`; skills
 * read-only at `/skills/<name>`; other mounts at `/mounts/<name>` — and gives the model file tools
 * (and `run_command` with a sandbox) confined to that view. The scope of a call comes from the
 * trusted tool context (run and session ids), never from the model, so one session never sees
 * another's files (F-2). System records under `<root>/system` are in no view (F-3).
 *
 * Creating a workspace has no side effect; directories appear on first use.
 */
export class Workspace {
  readonly root: string;
  readonly persistent: boolean;
  readonly sandbox: Sandbox | undefined;
  readonly limits: ResolvedWorkspaceLimits;
  private readonly checkpointsEnabled: boolean;
  private readonly readsChecked: boolean;
  private readonly readOnlyMounts: readonly MountBinding[];
  private readonly prepared = new Set<string>();
  private cachedTools: readonly Tool[] | undefined;

  constructor(options: WorkspaceOptions) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new InvalidConfigurationError(
        'workspace',
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      );
    }
    const data = parsed.data;
    this.root = resolve(data.root);
    this.persistent = data.persistent;
    this.sandbox = data.sandbox;
    this.limits = data.limits;
    this.checkpointsEnabled = data.checkpoints;
    this.readsChecked = data.writeOnlyWhatWasRead;
    this.readOnlyMounts = [
      ...data.skills.map((skill) => binding('skill', `/skills/${skill.name}`, skill.directory, false)),
      ...data.mounts.map((mount) => binding('mount', `/mounts/${mount.name}`, mount.directory, mount.writable)),
    ];
  }

  /** The directory for system records (checkpoints, MCP task ledger, a run store file): in no view (F-3). */
  get systemDirectory(): string {
    return join(this.root, layout.system);
  }

  /** The authorised view of one run (F-2). */
  view(scope: WorkspaceScope): WorkspaceView {
    const work: MountBinding = {
      ...binding('work', '/work', this.root, true, workSegments(this.persistent, scope)),
      ...(this.sandbox?.hostUser ? { owner: this.sandbox.hostUser } : {}),
    };
    return { scope: { sessionId: scope.sessionId, runId: scope.runId }, mounts: [work, ...this.readOnlyMounts] };
  }

  /** The host path of a scope's work directory. */
  workDirectory(scope: WorkspaceScope): string {
    return join(this.root, ...workSegments(this.persistent, scope));
  }

  /**
   * Creates the scope's work directory (and, for a temporary one, the marker naming its run) if
   * needed. Tools call it before touching files; a sandbox needs it before binding the directory.
   */
  async prepare(scope: WorkspaceScope): Promise<WorkspaceView> {
    const view = this.view(scope);
    const key = `${scope.sessionId}\u0000${scope.runId}`;
    if (this.prepared.has(key)) return view;
    const root = await openMountRoot(view.mounts[0] as MountBinding, true);
    await root.handle.close();
    if (!this.persistent) {
      const marker = join(runDirectory(this.root, scope.runId), layout.runMarker);
      const content = JSON.stringify({ runId: scope.runId, sessionId: scope.sessionId });
      await writeFile(marker, content, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    }
    this.prepared.add(key);
    return view;
  }

  /** The file-read ledger of a run, or `undefined` when writes are not checked against reads (N-15). */
  readLedger(scope: WorkspaceScope): FileReadLedger | undefined {
    return this.readsChecked ? new FileReadLedger(readLedgerDirectory(this.root, scope.runId)) : undefined;
  }

  /** The file checkpoint log of a scope, or `undefined` when checkpoints are off (N-6). */
  checkpointLog(scope: WorkspaceScope): FileCheckpointLog | undefined {
    return this.checkpointsEnabled ? new FileCheckpointLog(checkpointDirectory(this.root, this.persistent, scope)) : undefined;
  }

  /**
   * Restores files to what they were before the recorded changes selected by `options`, newest
   * first (N-6). To roll back to a user message, pass the time that message was accepted (`since`),
   * or the last change sequence seen before it (`afterSequence`).
   */
  rollbackFiles(scope: WorkspaceScope, options: RollbackOptions): Promise<RollbackResult> {
    const log = this.checkpointLog(scope);
    if (!log) return Promise.resolve({ restored: [], failed: [] });
    return rollbackFiles(this.view(scope), log, options);
  }

  /**
   * Deletes a temporary run directory, once, after its run has settled (S-5, F-4): the run must be
   * terminal in `store`, otherwise `RunNotSettledError` is thrown and nothing is deleted (a run
   * interrupted by a crash or a disconnect keeps its files for whoever resumes it, F-5). Call it
   * after `run.result()` settled. Persistent work directories are never deleted here.
   */
  cleanupRun(runId: string, store: RunStore): Promise<CleanupOutcome> {
    if (this.persistent)
      return cleanupRunReadLedger(this.root, runId, store).then(() => ({ runId, outcome: 'kept-persistent' as const }));
    for (const key of this.prepared) if (key.endsWith(`\u0000${runId}`)) this.prepared.delete(key);
    return cleanupRunDirectory(this.root, runId, store);
  }

  /** Deletes every temporary run directory whose run is terminal in `store`; keeps the others (F-5). */
  cleanupStaleRunDirectories(store: RunStore): Promise<StaleCleanupReport> {
    return cleanupStaleRunDirectories(this.root, store);
  }

  /** The model's file tools (list, grep, read, write, edit) and, with a sandbox, `run_command`. */
  get tools(): readonly Tool[] {
    this.cachedTools ??= Object.freeze([...createFileTools(this), ...(this.sandbox ? [createCommandTool(this)] : [])]);
    return this.cachedTools;
  }
}

function binding(
  kind: MountBinding['kind'],
  virtualPath: string,
  base: string,
  writable: boolean,
  segments: string[] = [],
): MountBinding {
  return { kind, virtualPath, base: resolve(base), baseSegments: segments, writable };
}

/** Creates a workspace (see `Workspace`); validates the options and throws `InvalidConfigurationError` at once. */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  return new Workspace(options);
}
