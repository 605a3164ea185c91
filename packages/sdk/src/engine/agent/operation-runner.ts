import { isScriptTool, runScriptTool } from '../../capabilities/code-orchestration/index.js';
import type { CallJournal, Tool, ToolExecutionContext } from '../../capabilities/tools/tool.js';
import { toolResultContent } from '../../capabilities/tools/tool-result.js';
import { abortableSleep } from '../../core/abortable-sleep.js';
import { AttemptGuard } from '../../core/attempt-guard.js';
import { type Failure, failureFromToolError } from '../../core/failure.js';
import type { ToolCall } from '../../core/messages.js';
import { decideRetry } from '../../core/retry-policy.js';
import { runHookChain } from '../../hooks/run-hook-chain.js';
import { RunInterrupt } from '../run/run-control.js';
import type { AgentJournalRecord } from './agent-journal.js';
import type { AgentRunState, OperationState } from './agent-state.js';
import { ensureApproval } from './governance/approvals.js';
import { requestCallApproval } from './governance/call-approvals.js';
import { requestCallElicitation } from './governance/call-elicitations.js';
import { hasHooks } from './governance/governance.js';
import { identityOf } from './governance/hook-identity.js';
import { ensureGate } from './governance/tool-gate.js';
import type { RoleDefinition, RunContext } from './run-context.js';
import { scriptCallRunner } from './script-calls.js';

/** What the model reads for a call whose outcome was not saved before a crash (X-7). */
const UNKNOWN_OUTCOME_MESSAGE =
  'the call was started, but the process running it stopped before its outcome was saved; it may or may not have taken effect';

/**
 * Runs one logical tool call to its final result (X-5): writes the intent before each attempt,
 * bounds each attempt by the tool timeout and the remaining run time (C-10), retries by the
 * run's policy with the same arguments and identity, and commits the result as soon as it
 * arrives (X-2). An attempt left open by a crash is recorded `unknown` and then goes through the
 * same classification (R-5, X-7). Control flow (stop, deadline, lost ownership) is rethrown,
 * never turned into a tool error (X-3).
 */
export async function runOperation(
  context: RunContext,
  role: RoleDefinition,
  operationId: string,
  toolOverride?: Tool,
  gateKind: 'tool' | 'delegation' = 'tool',
): Promise<void> {
  const { durable, control } = context;
  const operation = () => durable.state.operations.get(operationId) as OperationState;
  for (;;) {
    const current = operation();
    if (current.result) return;
    // A raw result saved before a crash needs only its post-processing (R-8).
    if (current.rawResult) {
      await finishWithPostUse(context, current, current.rawResult.raw);
      return;
    }
    control.throwIfInterrupted();
    // Arguments that are not JSON never reach a hook, a gate or the tool: the model corrects them.
    const unparsed = unparsedArgumentsFailure(current.call);
    if (unparsed) {
      await finish(context, current, unparsed);
      return;
    }
    if (current.attemptOpen) {
      // A resumable tool continues the open attempt from its notes (it reconciles what the dead
      // attempt did); any other call is recorded `unknown` (X-7).
      const open = toolOverride ?? role.tools.get(current.call.name);
      if (open?.resumable) {
        const parsedOpen = open.parameters.safeParse(current.call.arguments);
        if (parsedOpen.success) {
          const outcome = await runAttempt(context, role, open, parsedOpen.data, current, current.attempts);
          if (outcome.ok) await succeed(context, operation(), current.attempts, outcome.content);
          else await settleFailure(context, operation(), outcome.failure);
          continue;
        }
      }
      // A call that had put a question to the user is never sent again, retry or not (ADR 0038):
      // the person already saw it, and the server may have acted on an answer.
      if (askedTheUser(context.durable.state, operationId)) {
        await finish(context, current, { kind: 'unknown-outcome', message: UNKNOWN_OUTCOME_MESSAGE });
        return;
      }
      await settleFailure(context, current, { kind: 'unknown-outcome', message: UNKNOWN_OUTCOME_MESSAGE });
      continue;
    }
    if (current.retryAt !== undefined) await abortableSleep(current.retryAt - context.now(), control.signal);
    if (!(await passesGate(context, operationId, gateKind))) return;
    const gated = operation();
    const tool = toolOverride ?? role.tools.get(gated.call.name);
    if (!tool) {
      await finish(context, gated, { kind: 'unknown-tool', message: `there is no tool named "${gated.call.name}"` });
      return;
    }
    // The effective arguments (after hooks) are validated again (K-9).
    const parsed = tool.parameters.safeParse(gated.call.arguments);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
      await finish(context, gated, { kind: 'invalid-arguments', message: `invalid arguments: ${detail}` });
      return;
    }
    const attempt = gated.attempts + 1;
    await durable.commit(() => ({
      entries: [{ type: 'attempt-started', taskId: gated.taskId, data: { operationId, attempt } }],
    }));
    const outcome = await runAttempt(context, role, tool, parsed.data, gated, attempt);
    if (outcome.ok) {
      await succeed(context, operation(), attempt, outcome.content);
      return;
    }
    await settleFailure(context, operation(), outcome.failure);
  }
}

/**
 * The `invalid-arguments` failure of a call whose arguments were not JSON in an otherwise
 * complete response, telling the model what it sent; `undefined` for a call with parsed
 * arguments.
 */
export function unparsedArgumentsFailure(call: ToolCall): Failure | undefined {
  if (call.unparsedArguments === undefined) return undefined;
  const shown = call.unparsedArguments.length > 200 ? `${call.unparsedArguments.slice(0, 200)}…` : call.unparsedArguments;
  return {
    kind: 'invalid-arguments',
    code: 'arguments-not-json',
    message: `the arguments are not valid JSON (received ${JSON.stringify(shown)}); call "${call.name}" again with a JSON object that matches its parameters`,
  };
}

/** Whether a call asked the run's user an elicitation (its outcome, once unknown, is final). */
function askedTheUser(state: AgentRunState, operationId: string): boolean {
  for (const asked of state.elicitations.values()) if (asked.operationId === operationId) return true;
  return false;
}

/**
 * Records `unknown` for every attempt a dead owner left open (X-7), without retrying it: used by a
 * taker that must stop at once (S-5), so the record says what is known — the call may or may not
 * have taken effect — and no call starts again.
 */
export async function recordLostAttempts(context: RunContext): Promise<void> {
  for (const operation of [...context.durable.state.operations.values()]) {
    if (!operation.attemptOpen || operation.result) continue;
    await finish(context, operation, { kind: 'unknown-outcome', message: UNKNOWN_OUTCOME_MESSAGE });
  }
}

/**
 * Applies the call's gate (K-5, K-6): decided once and saved; `ask` waits for an approval. A
 * denied call returns a correlated error to the model and never runs; retries never reopen it.
 * Returns whether the call may run.
 */
export async function passesGate(
  context: RunContext,
  operationId: string,
  kind: 'tool' | 'delegation' = 'tool',
): Promise<boolean> {
  const operation = () => context.durable.state.operations.get(operationId) as OperationState;
  await ensureGate(context, operation(), kind);
  const gate = operation().gate;
  if (!gate || gate.decision === 'allow') return true;
  if (gate.decision === 'ask') {
    const decided = await ensureApproval(context, operationId);
    if (decided.approved) return true;
    await finish(context, operation(), {
      kind: 'denied',
      message: `not approved (${decided.decidedBy})${decided.reason ? `: ${decided.reason}` : ''}`,
    });
    return false;
  }
  await finish(context, operation(), {
    kind: 'denied',
    message: `denied by ${gate.source ?? 'policy'}: ${gate.reason ?? 'no reason given'}`,
  });
  return false;
}

/** Records a successful attempt: at once, or raw first when post-use hooks will process it (R-8). */
async function succeed(context: RunContext, operation: OperationState, attempt: number, raw: string): Promise<void> {
  if (!hasHooks(context.governance, 'PostToolUse')) {
    await finish(context, operation, undefined, raw);
    return;
  }
  await context.durable.commit(() => ({
    entries: [
      { type: 'attempt-succeeded', taskId: operation.taskId, data: { operationId: operation.operationId, attempt, raw } },
    ],
  }));
  await finishWithPostUse(context, operation, raw);
}

/**
 * Runs the PostToolUse hooks on a raw result and commits what the model will see (K-6, K-9): a
 * modified result (the raw one kept, with the hooks as source), or a withheld one when a hook
 * denies delivery — which cannot undo the call's effects.
 */
async function finishWithPostUse(context: RunContext, operation: OperationState, raw: string): Promise<void> {
  const chain = await runHookChain(
    'PostToolUse',
    context.governance.hooks.PostToolUse,
    { toolName: operation.call.name, arguments: operation.call.arguments, result: raw },
    identityOf(context, operation.taskId, operation.operationId),
    { toolName: operation.call.name },
  );
  if (chain.decision === 'deny' || chain.decision === 'block') {
    await finish(
      context,
      operation,
      { kind: 'denied', message: `the result was withheld by ${chain.source ?? 'a hook'}: ${chain.reason ?? 'no reason given'}` },
      undefined,
      { rawContent: raw, modifiedBy: chain.source ? [chain.source] : [] },
    );
    return;
  }
  const modified = chain.modifiedBy.length > 0;
  await finish(
    context,
    operation,
    undefined,
    chain.subject.result,
    modified ? { rawContent: raw, modifiedBy: chain.modifiedBy } : undefined,
  );
}

type AttemptOutcome = { ok: true; content: string } | { ok: false; failure: Failure };

async function runAttempt(
  context: RunContext,
  role: RoleDefinition,
  tool: Tool,
  args: unknown,
  operation: OperationState,
  attempt: number,
): Promise<AttemptOutcome> {
  const { control, durable } = context;
  const remaining = durable.state.deadlineAt - context.now();
  const timeoutMs = Math.min(durable.state.execution.toolTimeoutMs, remaining);
  // A user stop lets this attempt settle and keeps its result (S-5); a deadline or a lost
  // ownership cuts it (X-10).
  const guard = new AttemptGuard(control.hardSignal);
  const timeout = new AttemptTimeout();
  // When the run deadline comes before the attempt timeout, running out is the run's timeout
  // (control flow, X-3), not a tool failure, whichever timer fires first.
  guard.setTimer(timeoutMs, () => (timeoutMs === remaining ? control.timeOut() : guard.fire(timeout)));
  // A person's time is not the attempt's: only the run's deadline bounds the wait, and the
  // attempt gets its full timeout again once the answer is in.
  const whileAPersonAnswers = async <Answer>(wait: () => Promise<Answer>): Promise<Answer> => {
    guard.setTimer(context.durable.state.deadlineAt - context.now(), () => control.timeOut());
    try {
      return await wait();
    } finally {
      const left = context.durable.state.deadlineAt - context.now();
      const again = Math.min(durable.state.execution.toolTimeoutMs, left);
      guard.setTimer(again, () => (again === left ? control.timeOut() : guard.fire(timeout)));
    }
  };
  try {
    const value = await guard.race(
      Promise.resolve().then(() => {
        const execution: ToolExecutionContext = {
          runId: context.runId,
          sessionId: context.sessionId,
          taskId: operation.taskId,
          operationId: operation.operationId,
          attempt,
          agentName: durable.state.agentName,
          metadata: context.metadata,
          get signal() {
            return guard.signal;
          },
          callJournal: callJournalOf(context, operation.operationId),
          requestApproval: ({ key, reason }) =>
            whileAPersonAnswers(() => requestCallApproval(context, operation.operationId, key, reason)),
          requestElicitation: (question) =>
            whileAPersonAnswers(() => requestCallElicitation(context, operation.operationId, question)),
        };
        // A script's calls are run by the engine, each like a direct call (N-15).
        return isScriptTool(tool)
          ? runScriptTool(tool, args, execution, scriptCallRunner(context, role, operation, runOperation))
          : tool.execute(args, execution);
      }),
    );
    // A value that is not JSON is the tool's fault, not the model's: a typed failure the model and
    // the journal both see, never empty or mangled content (the call has run, so no retry by default).
    const content = toolResultContent(value);
    if (!content.ok) return { ok: false, failure: { kind: 'invalid-result', message: content.problem } };
    return { ok: true, content: content.content };
  } catch (error) {
    const fired = guard.firedReason?.reason;
    if (RunInterrupt.isInstance(fired)) throw fired;
    // A stop or deadline met while the call waited for a decision is control flow (X-3).
    if (RunInterrupt.isInstance(error)) throw error;
    if (fired === timeout) {
      return { ok: false, failure: { kind: 'timeout', message: `the attempt ran past its ${timeoutMs} ms timeout` } };
    }
    return { ok: false, failure: failureFromToolError(error) };
  } finally {
    guard.dispose();
  }
}

/**
 * The durable notes of one operation (the tool's `callJournal`): each write is one fenced
 * `operation-noted` commit, so it is in the journal before the tool goes on (X-7).
 */
function callJournalOf(context: RunContext, operationId: string): CallJournal {
  const operation = () => context.durable.state.operations.get(operationId) as OperationState;
  return {
    read: (key) => operation().notes?.[key],
    write: async (key, value) => {
      await context.durable.commit(() => ({
        entries: [{ type: 'operation-noted', taskId: operation().taskId, data: { operationId, key, value } }],
      }));
    },
  };
}

/** Marker reason for an attempt timeout, told apart from control aborts by identity. */
class AttemptTimeout {}

async function settleFailure(context: RunContext, operation: OperationState, failure: Failure): Promise<void> {
  // After a stop no retry starts (X-10): the failure is the operation's result. A run being handed
  // over leaves the retry decision to its next owner: the failed attempt is saved as such.
  const interrupt = context.control.interrupt;
  if (interrupt && interrupt.reason !== 'detached') {
    await finish(context, operation, failure);
    return;
  }
  const decision = decideRetry({
    policy: context.retry,
    failure,
    attempt: operation.attempts,
    now: context.now(),
    deadlineAt: context.durable.state.deadlineAt,
  });
  if (!decision.retry) {
    await finish(context, operation, failure);
    return;
  }
  const retryAt = context.now() + decision.waitMs;
  await context.durable.commit(() => ({
    entries: [
      {
        type: 'attempt-failed',
        taskId: operation.taskId,
        data: { operationId: operation.operationId, attempt: operation.attempts, failure, retryAt },
      },
    ],
  }));
}

/** Commits an operation's final result, and the batch join with it when it is the last one (X-1). */
async function finish(
  context: RunContext,
  operation: OperationState,
  failure: Failure | undefined,
  content?: string,
  extra?: { rawContent: string; modifiedBy: string[] },
): Promise<void> {
  if (failure && failure.kind !== 'denied' && hasHooks(context.governance, 'PostToolUseFailure')) {
    await runHookChain(
      'PostToolUseFailure',
      context.governance.hooks.PostToolUseFailure,
      {
        toolName: operation.call.name,
        arguments: operation.call.arguments,
        failure: { kind: failure.kind, message: failure.message },
      },
      identityOf(context, operation.taskId, operation.operationId),
      { toolName: operation.call.name },
    );
  }
  await context.durable.commit((state) => ({ entries: operationResultEntries(state, operation, failure, content, extra) }));
}

/**
 * The entries that record an operation's final result: `operation-finished`, followed by
 * `batch-joined` when it is the last open member of its batch (X-1). Built inside a commit, so
 * "last" is decided on the exact state.
 */
export function operationResultEntries(
  state: AgentRunState,
  operation: OperationState,
  failure: Failure | undefined,
  content?: string,
  extra?: { rawContent: string; modifiedBy: string[] },
): AgentJournalRecord[] {
  const entries: AgentJournalRecord[] = [
    {
      type: 'operation-finished',
      taskId: operation.taskId,
      data: {
        operationId: operation.operationId,
        status: failure ? 'failed' : 'succeeded',
        content: failure ? describeFailure(failure) : (content ?? ''),
        attempts: operation.attempts,
        ...(failure ? { failure } : {}),
        ...(extra ?? {}),
      },
    },
  ];
  if (isLastOpen(state, operation)) {
    entries.push({ type: 'batch-joined', taskId: operation.taskId, data: { loop: operation.loop } });
  }
  return entries;
}

function isLastOpen(state: AgentRunState, operation: OperationState): boolean {
  const task = state.tasks.get(operation.taskId);
  if (!task) return false;
  return task.batch.every((id) => id === operation.operationId || state.operations.get(id)?.result !== undefined);
}

/** The text the model reads for a failed call: the kind first, so that it can react to it. */
export function describeFailure(failure: Failure): string {
  return `Error (${failure.kind}): ${failure.message}`;
}
