import {
  type ChainResult,
  type Hook,
  type HookContext,
  type HookDecision,
  type HookIdentity,
  type HookOutcome,
  type HookSubjects,
  type HookTrigger,
  hookDecisions,
} from './hook-types.js';

const DEFAULT_TIMEOUT_MS = 5000;
const decisions: ReadonlySet<unknown> = new Set(hookDecisions);

/** Which subject fields each trigger lets a hook replace; everything else is identity or control (K-8). */
const modifiable: { [Trigger in HookTrigger]: readonly string[] } = {
  PreToolUse: ['arguments'],
  PostToolUse: ['result'],
  PostToolUseFailure: [],
  PostToolBatch: [],
  UserPromptSubmit: ['text'],
  Stop: [],
  SubagentStart: ['task'],
  SubagentStop: ['output'],
  PreCompact: [],
  PermissionRequest: [],
  SessionStart: [],
  SessionEnd: [],
  ModelRequest: [],
  ModelResponse: [],
};

/**
 * Runs the hooks of one trigger in their fixed order (K-8), each seeing the previous valid
 * version of the subject, and combines their answers (K-5…K-7):
 * - `deny` is final: no later hook can overturn it, and the chain stops there;
 * - otherwise `block` beats `ask`, which beats `allow`;
 * - a hook that throws, times out, answers something invalid or tries to change anything but the
 *   trigger's modifiable fields is skipped: its modification is discarded and the chain goes on
 *   with the last valid version — unless it is `failClosed`, which turns its failure into a deny;
 * - a valid `deny` with an invalid modification still denies (the modification is discarded);
 * - observers run in the background and change nothing.
 */
export async function runHookChain<Trigger extends HookTrigger>(
  trigger: Trigger,
  hooks: readonly Hook<Trigger>[] | undefined,
  subject: HookSubjects[Trigger],
  identity: HookIdentity,
  options: { toolName?: string } = {},
): Promise<ChainResult<HookSubjects[Trigger]>> {
  const result: ChainResult<HookSubjects[Trigger]> = { decision: 'allow', subject, modifiedBy: [], outcomes: [] };
  let rank = 0;
  for (const hook of hooks ?? []) {
    if (hook.matcher && options.toolName !== undefined && !hook.matcher.includes(options.toolName)) continue;
    if (hook.observe) {
      observe(hook, result.subject, identity);
      continue;
    }
    const answer = await callHook(hook, result.subject, identity);
    if (answer.kind === 'failed') {
      result.outcomes.push({
        hook: hook.name,
        outcome: answer.outcome,
        reason: answer.reason,
        ...(answer.code !== undefined ? { code: answer.code } : {}),
      });
      if (hook.failClosed) {
        result.decision = 'deny';
        result.reason = `hook ${hook.name} failed (${answer.outcome}) and fails closed`;
        result.source = hook.name;
        break;
      }
      continue;
    }
    const decision = answer.value;
    const modification = decision?.modify === undefined ? undefined : validModification(trigger, decision.modify);
    const discarded = decision?.modify !== undefined && !modification;
    const outcome: HookOutcome = {
      hook: hook.name,
      outcome:
        decision?.decision === 'deny'
          ? 'deny'
          : discarded
            ? 'invalid'
            : (decision?.decision ?? (modification ? 'modify' : 'none')),
    };
    if (decision?.reason !== undefined) outcome.reason = decision.reason;
    if (discarded) {
      outcome.reason = `${outcome.reason ? `${outcome.reason}; ` : ''}modification discarded: only ${modifiable[trigger].join(', ') || 'nothing'} may change`;
    }
    result.outcomes.push(outcome);
    if (discarded && decision?.decision !== 'deny') continue;
    if (decision?.decision === 'deny') {
      result.decision = 'deny';
      if (decision.reason !== undefined) result.reason = decision.reason;
      result.source = hook.name;
      break;
    }
    if (modification) {
      result.subject = { ...result.subject, ...modification };
      result.modifiedBy.push(hook.name);
    }
    const weight = decision?.decision === 'block' ? 3 : decision?.decision === 'ask' ? 2 : decision?.decision === 'allow' ? 1 : 0;
    if (weight > rank) {
      rank = weight;
      result.decision = decision?.decision as ChainResult<HookSubjects[Trigger]>['decision'];
      if (decision?.reason !== undefined) result.reason = decision.reason;
      result.source = hook.name;
    }
  }
  return result;
}

type HookAnswer =
  | { kind: 'answered'; value: HookDecision | undefined }
  | { kind: 'failed'; outcome: 'error' | 'timeout' | 'invalid'; reason: string; code?: string };

async function callHook<Trigger extends HookTrigger>(
  hook: Hook<Trigger>,
  subject: HookSubjects[Trigger],
  identity: HookIdentity,
): Promise<HookAnswer> {
  const controller = new AbortController();
  const timeoutMs = hook.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<HookAnswer>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: 'failed', outcome: 'timeout', reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const context: HookContext = { identity: Object.freeze({ ...identity }), signal: controller.signal };
  const called = Promise.resolve()
    .then(() => hook.handle(structuredClone(subject), context))
    .then(
      (value): HookAnswer =>
        isDecision(value)
          ? { kind: 'answered', value: value ?? undefined }
          : { kind: 'failed', outcome: 'invalid', reason: 'the answer is not a hook decision' },
      (error: unknown): HookAnswer => {
        const code = (error as { code?: unknown } | null)?.code;
        return {
          kind: 'failed',
          outcome: 'error',
          reason: error instanceof Error ? error.message : String(error),
          ...(typeof code === 'string' && code !== '' ? { code } : {}),
        };
      },
    );
  try {
    return await Promise.race([called, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function observe<Trigger extends HookTrigger>(hook: Hook<Trigger>, subject: HookSubjects[Trigger], identity: HookIdentity): void {
  const context: HookContext = { identity: Object.freeze({ ...identity }), signal: new AbortController().signal };
  void Promise.resolve()
    .then(() => hook.handle(structuredClone(subject), context))
    .catch(() => {});
}

function isDecision(value: unknown): value is HookDecision | undefined {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).some((key) => key !== 'decision' && key !== 'reason' && key !== 'modify')) return false;
  if (record.decision !== undefined && !decisions.has(record.decision)) return false;
  if (record.reason !== undefined && typeof record.reason !== 'string') return false;
  if (record.modify !== undefined && (typeof record.modify !== 'object' || record.modify === null)) return false;
  return true;
}

function validModification(trigger: HookTrigger, modify: Record<string, unknown>): Record<string, unknown> | undefined {
  const allowed = modifiable[trigger];
  const keys = Object.keys(modify);
  if (keys.length === 0 || keys.some((key) => !allowed.includes(key))) return undefined;
  if ('text' in modify && typeof modify.text !== 'string') return undefined;
  if ('result' in modify && typeof modify.result !== 'string') return undefined;
  if ('output' in modify && typeof modify.output !== 'string') return undefined;
  if ('task' in modify && typeof modify.task !== 'string') return undefined;
  return modify;
}
