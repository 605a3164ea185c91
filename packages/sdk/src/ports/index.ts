/**
 * @module @agentloom/sdk/ports
 * The ports of AgentLoom, for whoever writes an adapter: a run store, a model provider, a sandbox.
 * Every type a port's methods take and return is here, with the errors an adapter throws, so an
 * adapter imports from this entry point alone. `runStoreContract` in
 * `@agentloom/sdk/testing/contract` checks a store; the SDK's own adapters are the examples
 * (`@agentloom/sdk/store/sqlite`, `store/postgres`, `providers/openai-compatible`,
 * `providers/anthropic`, and `BubblewrapSandbox` / `ProcessSandbox` at the root).
 */

export {
  ModelCallError,
  StaleEpochError,
  StoreFailureError,
  StoreFileChangedError,
  UnsupportedJournalFormatError,
} from '../core/errors/index.js';
export type { Failure, FailureKind } from '../core/failure.js';
export type { AssistantMessage, Message, ToolCall, ToolResultMessage, Usage, UserMessage } from '../core/messages.js';
// The model port: one attempt per call, no retries (the engine retries by the run policy).
export type {
  FinishReason,
  LanguageModelV1,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelResponseMetadata,
  ModelServer,
  ModelStreamPart,
  ToolDefinition,
} from '../model/language-model.js';
// The sandbox port: how `run_command` runs a process confined to the workspace's view.
export type { CommandRequest, CommandResult, HostUser, ProcessLaunch, ProcessRequest, Sandbox } from '../sandbox/sandbox.js';
export type { WorkspaceView } from '../sandbox/workspace-view.js';
// The run store port (ADR 0001, 0002): rows (`RunRecord`) and journal entries, fenced by epoch.
export type {
  AcquireRequest,
  AcquireResult,
  AppendRequest,
  CreateRunRequest,
  ExternalAppendRequest,
  JournalEntry,
  NewJournalEntry,
  ReadJournalOptions,
  ReadSessionRequest,
  RunKind,
  RunLabels,
  RunListPosition,
  RunListQuery,
  RunMetadata,
  RunRecord,
  RunStore,
  SessionListQuery,
  SessionRecord,
  SessionRunRead,
  StoredRunStatus,
} from '../store/run-store.js';
