/**
 * The trigger points hooks attach to (K-4): the Claude Code hook events plus model request and
 * response. The one list that `HookTrigger`, the agent configuration's hook map and the
 * definition format's `hooks` are derived from.
 */
export const hookTriggers = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PermissionRequest',
  'SessionStart',
  'SessionEnd',
  'ModelRequest',
  'ModelResponse',
] as const;

/**
 * A hook trigger point (`hookTriggers`). A hook that decides or modifies is awaited in a fixed
 * order; an observer (`observe: true`) is not.
 */
export type HookTrigger = (typeof hookTriggers)[number];

/** The trusted identity of the step a hook sees; hooks can read it, never change it (K-8). */
export interface HookIdentity {
  runId: string;
  sessionId: string;
  agentName: string;
  /** The role running the step: the ReAct role, `planner`, or an executor role. */
  role: string;
  taskId: string;
  /** The logical call, for tool triggers. */
  operationId?: string;
}

/** What each trigger tells its hooks. */
export interface HookSubjects {
  PreToolUse: { toolName: string; arguments: unknown; kind: 'tool' | 'delegation' };
  PostToolUse: { toolName: string; arguments: unknown; result: string };
  PostToolUseFailure: { toolName: string; arguments: unknown; failure: { kind: string; message: string } };
  PostToolBatch: { results: Array<{ toolName: string; status: 'succeeded' | 'failed'; content: string }> };
  UserPromptSubmit: { text: string; source: 'input' | 'supplement' };
  Stop: { answer: string };
  SubagentStart: { executor: string; task: string };
  SubagentStop: { executor: string; status: 'succeeded' | 'failed'; output: string };
  PreCompact: { messages: number; tokens: number };
  PermissionRequest: { toolName: string; arguments: unknown; reason: string };
  SessionStart: { input: string; resumed: boolean };
  SessionEnd: { status: string; reason?: string };
  ModelRequest: { messages: number; tools: number };
  ModelResponse: { finishReason: string; toolCalls: number; outputTokens: number };
}

/** What a hook may decide: the one list `HookDecision` and the hook chain's answer check use. */
export const hookDecisions = ['allow', 'deny', 'ask', 'block'] as const;

/**
 * A hook's answer (K-5). `allow` lets the step go on (it never bypasses permission, argument,
 * budget, stop or deadline checks); `deny` refuses it and cannot be overturned later in the chain;
 * `ask` routes it to approval; `block` stops a result or an ending from going further (post-use,
 * Stop); `modify` replaces what the step works with. Returning nothing means no opinion.
 */
export interface HookDecision {
  decision?: (typeof hookDecisions)[number];
  reason?: string;
  /** Replacements, per trigger: `arguments` (PreToolUse), `result` (PostToolUse), `text` (UserPromptSubmit), `task` (SubagentStart), `output` (SubagentStop). */
  modify?: Record<string, unknown>;
}

/** The context a hook runs with: trusted identity and a signal aborted at its timeout. */
export interface HookContext {
  identity: Readonly<HookIdentity>;
  signal: AbortSignal;
}

/** One hook of one trigger point. */
export interface Hook<Trigger extends HookTrigger = HookTrigger> {
  /** Names the hook in the journal (the source of its decisions and modifications). */
  name: string;
  /** Tool names this hook applies to (tool triggers); all when omitted. */
  matcher?: readonly string[];
  /** Longest wait for the hook, in milliseconds; default 5000. A timeout is a hook failure (K-7). */
  timeoutMs?: number;
  /** Pure observer: not awaited, its answer ignored (K-4). */
  observe?: boolean;
  /** Treat a failure of this hook (throw, timeout, invalid answer) as a deny instead of skipping it. */
  failClosed?: boolean;
  handle(subject: HookSubjects[Trigger], context: HookContext): HookDecision | undefined | Promise<HookDecision | undefined>;
}

/** The hooks of an agent, by trigger point, each list in the order it runs (K-8). */
export type HookMap = { [Trigger in HookTrigger]?: readonly Hook<Trigger>[] };

/** How one hook's turn in a chain went, as journaled. */
export interface HookOutcome {
  hook: string;
  outcome: 'allow' | 'deny' | 'ask' | 'block' | 'modify' | 'none' | 'error' | 'timeout' | 'invalid';
  reason?: string;
  /** The `code` of the error a failed hook threw (`egress-denied`, `ECONNREFUSED` …), when it had one. */
  code?: string;
}

/** The result of a whole chain: the combined decision and the last valid version of the subject. */
export interface ChainResult<Subject> {
  decision: 'allow' | 'deny' | 'ask' | 'block';
  reason?: string;
  /** The hook whose answer set `decision` (or the last modification). */
  source?: string;
  subject: Subject;
  /** Which hooks modified the subject, in order. */
  modifiedBy: string[];
  outcomes: HookOutcome[];
}
