export {
  type BubblewrapAvailability,
  BubblewrapSandbox,
  type BubblewrapSandboxOptions,
  checkBubblewrap,
} from './bubblewrap/index.js';
export { createCommandTool, describeCommandResult } from './command-tool.js';
export {
  createFileArea,
  FileArea,
  type FileAreaEntry,
  type FileAreaOptions,
  type FileAreaStatus,
  type FileAreaUsage,
} from './file-area.js';
export { type FileChange, FileCheckpointLog } from './file-checkpoints.js';
export type { RollbackOptions, RollbackResult } from './file-rollback.js';
export { createFileTools } from './file-tools.js';
export { ProcessSandbox } from './process/index.js';
export type { CleanupOutcome, StaleCleanupReport } from './run-directory-cleanup.js';
export type { CommandRequest, CommandResult, HostUser, ProcessLaunch, ProcessRequest, Sandbox } from './sandbox.js';
export {
  FileEditConflictError,
  FileNotFoundError,
  FileNotReadError,
  FileTooLargeError,
  InvalidSearchPatternError,
  RunNotSettledError,
  SandboxUnavailableError,
  WorkspaceAccessError,
  type WorkspaceRefusalReason,
} from './sandbox-errors.js';
export {
  createWorkspace,
  type ResolvedWorkspaceLimits,
  Workspace,
  type WorkspaceLimits,
  type WorkspaceOptions,
} from './workspace.js';
export {
  type MountBinding,
  type MountKind,
  type ResolvedPath,
  resolveVirtualPath,
  type WorkspaceScope,
  type WorkspaceView,
} from './workspace-view.js';
