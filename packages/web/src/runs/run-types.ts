import type { components } from '../api/generated/platform-api.js';
import type { RunEvent } from './run-events.js';

/** The body that answers an elicitation (`POST /runs/{runId}/elicitations/{elicitationId}`). */
type ElicitationAnswer = components['schemas']['ElicitationAnswer'];

/**
 * The shapes of the run API's free-form answers (`GET /runs/:id/view`, the run log, a session's
 * runs; the event stream's types are generated: `run-events.ts`). The OpenAPI document types them as records because they come straight from the SDK's
 * `RunClient.describeRun`; these are the fields the console reads, kept optional where the SDK
 * leaves them out, so a missing field renders as "—" instead of throwing.
 */

/** The API's run status (a projection of the SDK's, PLATFORM.md §4.4). */
export type RunStatus = 'queued' | 'pending' | 'running' | 'waiting-input' | 'stopping' | 'succeeded' | 'failed' | 'stopped';

/** Token usage as the SDK counts it. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/** A failure the SDK recorded (model, tool or task). */
export interface Failure {
  kind?: string;
  message?: string;
}

export interface TaskView {
  taskId: string;
  role: string;
  parentTaskId?: string;
  loop: number;
  phase: string;
  batch: string[];
  outcome?: { status: 'succeeded' | 'failed'; output?: string; failure?: Failure };
}

export interface OperationView {
  operationId: string;
  taskId: string;
  loop: number;
  toolName: string;
  arguments: unknown;
  attempts: number;
  status: 'pending' | 'waiting-approval' | 'running' | 'retrying' | 'unknown' | 'succeeded' | 'failed';
  content?: string;
  failure?: Failure;
  gate?: { decision: 'allow' | 'ask' | 'deny'; reason?: string; source?: string };
}

export interface ApprovalView {
  approvalId: string;
  toolName: string;
  arguments: unknown;
  reason: string;
  expiresAt?: number;
  decision?: { approved: boolean; reason?: string; decidedBy: string };
}

/** The generated stream event that asks an MCP elicitation: the question's fields come from it. */
type ElicitationRequestEvent = Extract<RunEvent, { type: 'elicitation-request' }>;

/**
 * An MCP server's question to the run's user (ADR 0038), as the run view shows it. The run view
 * is untyped in the OpenAPI document (`view` is a record), so only the question's own fields and
 * the answer's action are generated — from the `elicitation-request` event and the
 * `ElicitationAnswer` body, which carry the same fields; the view's state (expiry, status, the
 * answer) is written here.
 */
export interface ElicitationView
  extends Pick<
    ElicitationRequestEvent,
    'elicitationId' | 'operationId' | 'toolName' | 'server' | 'message' | 'mode' | 'requestedSchema' | 'url'
  > {
  expiresAt: number;
  status: 'pending' | 'answered' | 'ended';
  answer?: { action: ElicitationAnswer['action']; content?: ElicitationAnswer['content']; answeredBy: string };
}

export interface SupplementView {
  supplementId: string;
  text: string;
  status: 'accepted' | 'consumed' | 'carried-over';
  carriedFrom?: string;
}

export interface CompressionView {
  taskId: string;
  coveredUpTo: number;
  usage: Usage;
}

export interface HookChangeView {
  subject: string;
  source?: string;
  raw: unknown;
  effective: unknown;
}

/** `GET /runs/:runId/view` → `view`: the run as any process sees it (P-10). */
export interface RunDescriptionView {
  runId: string;
  sessionId: string;
  name: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'stopped';
  reason?: string;
  result?: { status: string; output?: string; reason?: string; failure?: Failure; loops: number; usage: Usage };
  loops: number;
  usage: Usage;
  input?: unknown;
  stopRequest?: { reason?: string; requestedBy: string };
  createdAt: number;
  updatedAt: number;
  lastSequence: number;
  agent?: {
    mode: 'react' | 'plan-executor';
    entryRole: string;
    maxLoops: number;
    tasks: TaskView[];
    operations: OperationView[];
    approvals: ApprovalView[];
    /** Absent in views of servers older than ADR 0038. */
    elicitations?: ElicitationView[];
    supplements: SupplementView[];
    compressions: CompressionView[];
    hookChanges: HookChangeView[];
  };
}

/** One row of an app's run log (`GET /apps/:appId/runs`). */
export interface RunLogEntry {
  id: string;
  sessionId: string;
  status: RunStatus;
  reason: string | null;
  loops: number;
  /** A debug run of the draft (listed only when asked for). */
  debug: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One run of a session (`GET /sessions/:sessionId`). */
export interface SessionRunEntry {
  id: string;
  status: RunStatus;
  input: unknown;
  output: string | null;
  reason: string | null;
  createdAt: string;
}

/** Whether a status is final. */
export function isTerminal(status: string | undefined): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'stopped';
}

/** The input as text (the SDK records it as given; the platform sends a string). */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined || input === null) return '—';
  return JSON.stringify(input);
}
