/** What the run pages share: the API's run shapes, the event stream, the run turn, the terminal reason in words. */

export { progressOf, type RunProgress } from './agent-progress.js';
export { ApprovalRequests } from './approval-requests.js';
export { ElicitationRequests } from './elicitation-requests.js';
export { PartialOutput } from './partial-output.js';
export type { AgentRunEvent, AgentRunResult, RunEvent, WorkflowResult, WorkflowRunEvent } from './run-events.js';
export { fetchRunLog, useApp, useRun, useRunView, useSession } from './run-queries.js';
export { RunStatusBadge } from './run-status-badge.js';
export { RunTurn } from './run-turn.js';
export * from './run-types.js';
export { endingInWords, statusLabel } from './terminal-reason.js';
export { type RunStream, type StreamConnection, useRunStream } from './use-run-stream.js';
