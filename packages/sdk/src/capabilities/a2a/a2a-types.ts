/**
 * The A2A 1.0 wire shapes this client reads and writes (JSON-RPC binding, ProtoJSON: camelCase
 * fields, enums as their SCREAMING_SNAKE names, no `kind`): only the fields it uses, the rest is
 * passed through untouched. The normative source is `specification/a2a.proto` (`lf.a2a.v1`).
 */

/** The eight task states of A2A 1.0 (plus `UNSPECIFIED`, which a server should never send). */
export type A2ATaskState =
  | 'TASK_STATE_UNSPECIFIED'
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_AUTH_REQUIRED';

/** States after which a task never changes again. */
export const TERMINAL_STATES: ReadonlySet<string> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/** States where the task waits for the client (a message, or credentials out of band). */
export const INTERRUPTED_STATES: ReadonlySet<string> = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

/** One part of a message or artifact: exactly one of `text`, `raw` (base64), `url`, `data`. */
export interface A2APart {
  text?: string;
  raw?: string;
  url?: string;
  data?: unknown;
  mediaType?: string;
  filename?: string;
  metadata?: Record<string, unknown>;
}

export interface A2AMessage {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2APart[];
  metadata?: Record<string, unknown>;
}

export interface A2AArtifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: A2APart[];
}

export interface A2ATaskStatus {
  state: A2ATaskState;
  message?: A2AMessage;
  timestamp?: string;
}

export interface A2ATask {
  id: string;
  contextId: string;
  status: A2ATaskStatus;
  artifacts?: A2AArtifact[];
  history?: A2AMessage[];
  metadata?: Record<string, unknown>;
}

/** One event of a stream (`SendStreamingMessage`, `SubscribeToTask`): one member is set. */
export interface A2AStreamResponse {
  task?: A2ATask;
  message?: A2AMessage;
  statusUpdate?: { taskId: string; contextId: string; status: A2ATaskStatus };
  artifactUpdate?: { taskId: string; contextId: string; artifact: A2AArtifact; append?: boolean; lastChunk?: boolean };
}

/** An interface of an agent card: where and how to reach the agent. */
export interface A2AAgentInterface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
  tenant?: string;
}

/** The fields of an Agent Card this client uses. */
export interface A2AAgentCard {
  name: string;
  description: string;
  version?: string;
  supportedInterfaces: A2AAgentInterface[];
  capabilities?: { streaming?: boolean; pushNotifications?: boolean };
  skills?: { id: string; name: string; description: string }[];
}

/** The text of a list of parts: text parts as they are, data parts as JSON, files by reference. */
export function textOfParts(parts: readonly A2APart[] | undefined): string {
  return (parts ?? [])
    .map((part) => {
      if (typeof part.text === 'string') return part.text;
      if (part.data !== undefined) return JSON.stringify(part.data);
      if (typeof part.url === 'string') return `[file ${part.filename ?? ''} at ${part.url}]`.replace('  ', ' ');
      if (typeof part.raw === 'string') return `[file ${part.filename ?? ''} (${part.mediaType ?? 'bytes'})]`.replace('  ', ' ');
      return '';
    })
    .join('');
}
