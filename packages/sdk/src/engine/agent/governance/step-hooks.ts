import { AgentLoomError, hasErrorCode } from '../../../core/errors/index.js';
import type { Hook, HookSubjects, HookTrigger } from '../../../hooks/hook-types.js';
import { runHookChain } from '../../../hooks/run-hook-chain.js';
import type { AgentJournalRecord } from '../agent-journal.js';
import type { HookVerdict } from '../agent-state.js';
import type { RunContext } from '../run-context.js';
import { hasHooks } from './governance.js';
import { identityOf } from './hook-identity.js';

/** A hook or guardrail refused the run's input or final answer: the run ends `blocked` (K-5, N-2). */
export class RunBlockedError extends AgentLoomError {
  readonly source: string;

  constructor(source: string, reason: string) {
    super('run-blocked', `Blocked by ${source}: ${reason}`);
    this.source = source;
  }

  static override isInstance(error: unknown): error is RunBlockedError {
    return hasErrorCode(error, 'run-blocked');
  }
}

/**
 * Evaluates a hook chain on a step that is not a tool call and returns its saved verdict: the one
 * already in the journal (R-8: never asked again), or a new one with the `hook-applied` entry that
 * records it, for the caller to commit with the step's own entries. `undefined` when no hook is
 * configured for the step.
 */
export async function stepVerdict<Trigger extends HookTrigger>(
  context: RunContext,
  options: {
    trigger: Trigger;
    subjectKey: string;
    taskId: string;
    subject: HookSubjects[Trigger];
    /** The field of the subject whose modified value becomes the verdict's `effective` value. */
    effectiveField?: keyof HookSubjects[Trigger] & string;
    extraHooks?: readonly Hook<Trigger>[];
  },
): Promise<{ verdict: HookVerdict; entry?: AgentJournalRecord } | undefined> {
  const saved = context.durable.state.hookVerdicts.get(options.subjectKey);
  if (saved) return { verdict: saved };
  const hooks = [
    ...((context.governance.hooks[options.trigger] as readonly Hook<Trigger>[] | undefined) ?? []),
    ...(options.extraHooks ?? []),
  ];
  if (hooks.length === 0) return undefined;
  const chain = await runHookChain(options.trigger, hooks, options.subject, identityOf(context, options.taskId));
  const verdict: HookVerdict = { decision: chain.decision };
  if (chain.reason !== undefined) verdict.reason = chain.reason;
  if (chain.source !== undefined) verdict.source = chain.source;
  if (options.effectiveField && chain.modifiedBy.length > 0) verdict.effective = chain.subject[options.effectiveField];
  const entry: AgentJournalRecord = {
    type: 'hook-applied',
    taskId: options.taskId,
    data: { trigger: options.trigger, subject: options.subjectKey, ...verdict, outcomes: chain.outcomes },
  };
  return { verdict, entry };
}

/** Lets observers of a trigger know about a step; their answers change nothing (K-4). */
export async function notifyHooks<Trigger extends HookTrigger>(
  context: RunContext,
  trigger: Trigger,
  taskId: string,
  subject: HookSubjects[Trigger],
): Promise<void> {
  if (!hasHooks(context.governance, trigger)) return;
  await runHookChain(
    trigger,
    context.governance.hooks[trigger] as readonly Hook<Trigger>[],
    subject,
    identityOf(context, taskId),
  );
}
