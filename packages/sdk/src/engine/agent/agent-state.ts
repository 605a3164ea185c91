import { StoreFailureError, UnsupportedJournalFormatError } from '../../core/errors/index.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../../core/messages.js';
import type { JournalEntry } from '../../store/run-store.js';
import { agentJournal, READABLE_AGENT_JOURNAL_FORMATS } from './agent-journal.js';
import type { AgentRunState, HookVerdict, OperationState, TaskState } from './agent-run-state.js';
import { ENTRY_TASK_ID, operationIdOf } from './agent-run-state.js';
import { applyApprovalDecided, applyApprovalRequested } from './approval-state.js';
import { resumeTask } from './background-task-state.js';
import { applyCheckpoint } from './checkpoint-state.js';
import { applyElicitationAnswered, applyElicitationRequested } from './elicitation-state.js';

export {
  type AgentRunState,
  ENTRY_TASK_ID,
  type HookVerdict,
  type OperationState,
  operationIdOf,
  type TaskPhase,
  type TaskState,
} from './agent-run-state.js';

/**
 * Rebuilds the state of a run from its whole journal. `run-started` is the first record, or the
 * first after the host's `run-requested` and the supplements or stop requests that reached a
 * pending run; those are applied in journal order after the state is created.
 */
export function foldAgentJournal(runId: string, entries: readonly JournalEntry[], history?: readonly Message[]): AgentRunState {
  const startIndex = entries.findIndex((entry) => entry.type === 'run-started');
  const started = entries[startIndex];
  if (!started) throw new UnsupportedJournalFormatError(runId, undefined);
  const state = createAgentRunState(runId, started, history);
  entries.forEach((entry, index) => {
    if (index !== startIndex) applyAgentEntry(state, entry);
  });
  return state;
}

/** Whether a journal holds an agent run that has started (an executor wrote `run-started`). */
export function hasAgentRunStarted(entries: readonly JournalEntry[]): boolean {
  return entries.some((entry) => entry.type === 'run-started');
}

/**
 * The state a run starts from. Format 1 carries its history; format 2 refers to it
 * (`historyFrom`), and the caller passes it resolved (`resolveHistory`); a reader that needs only
 * the run's own messages (session reading, descriptions, events) may leave it out.
 */
function createAgentRunState(runId: string, entry: JournalEntry, resolved: readonly Message[] | undefined): AgentRunState {
  const record = agentJournal.recordOf(entry);
  const data = record.type === 'run-started' ? record.data : undefined;
  if (!data || !READABLE_AGENT_JOURNAL_FORMATS.includes(data.formatVersion)) {
    throw new UnsupportedJournalFormatError(runId, data?.formatVersion);
  }
  const history = data.history ?? resolved ?? [];
  const carried = data.carried ?? [];
  const messages: Message[] = [
    ...history,
    ...carried.map((supplement): Message => ({ role: 'user', content: supplement.text })),
    { role: 'user', content: data.input },
  ];
  const entryTask: TaskState = {
    taskId: ENTRY_TASK_ID,
    role: data.entryRole,
    messages,
    ownStart: history.length,
    protectedIndexes: messages.map((_, index) => index).slice(history.length),
    loop: 0,
    phase: 'ready',
    modelAttempts: 0,
    batch: [],
    invalidCallLoops: 0,
  };
  return {
    input: data.input,
    agentName: data.agentName,
    mode: data.mode,
    entryRole: data.entryRole,
    execution: data.execution,
    deadlineAt: data.deadlineAt,
    window: data.window ?? { compressionThreshold: 0.8 },
    variables: data.variables ?? {},
    ...(data.sessionNote ? { sessionNote: data.sessionNote } : {}),
    ...(data.variant ? { variant: data.variant } : {}),
    tasks: new Map([[ENTRY_TASK_ID, entryTask]]),
    operations: new Map(),
    callApprovals: new Map(),
    elicitations: new Map(),
    loopsUsed: 0,
    usage: emptyUsage(),
    modelIndex: 0,
    usageByModel: new Map(),
    supplements: new Map(),
    carried,
    hookVerdicts: new Map(),
  };
}

/**
 * Applies one journal entry to the state. The live engine applies every entry it commits with
 * this same function, so a recovered run is exactly the run that was interrupted.
 */
export function applyAgentEntry(state: AgentRunState, entry: JournalEntry): void {
  const record = agentJournal.recordOf(entry);
  switch (record.type) {
    case 'run-started':
    case 'run-requested':
      return;
    case 'stop-requested':
      state.stopRequested ??= record.data;
      return;
    case 'checkpoint-started':
      state.checkpointStarted = true;
      return;
    case 'variant-files-restored':
      state.variantFilesRestored = true;
      return;
    case 'checkpoint-committed':
      applyCheckpoint(state, taskOf(state, ENTRY_TASK_ID), record.data);
      addUsage(state.usage, record.data.usage);
      return;
    case 'loop-started': {
      const task = taskOf(state, record.taskId);
      task.loop = record.data.loop;
      task.phase = 'calling-model';
      task.modelAttempts = 0;
      task.batch = [];
      state.loopsUsed += 1;
      return;
    }
    case 'model-attempt-failed':
      taskOf(state, record.taskId).modelAttempts = record.data.attempt;
      return;
    case 'model-fallback':
      // Concurrent tasks may each fall back from the same model: the chain only moves forward.
      state.modelIndex = Math.max(state.modelIndex, record.data.toIndex);
      taskOf(state, record.taskId).modelAttempts = 0;
      return;
    case 'model-responded': {
      const task = taskOf(state, record.taskId);
      const { message, loop } = record.data;
      task.messages.push(message);
      addUsage(state.usage, record.data.usage);
      if (record.data.model) addModelUsage(state, record.data.model, record.data.usage);
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) {
        task.phase = 'answered';
        task.answer = message.content;
        return;
      }
      task.phase = 'in-batch';
      task.batch = calls.map((call, index) => {
        const operationId = operationIdOf(task.taskId, loop, index);
        state.operations.set(operationId, {
          operationId,
          taskId: task.taskId,
          loop,
          index,
          call,
          attempts: 0,
          attemptOpen: false,
        });
        return operationId;
      });
      return;
    }
    case 'attempt-started': {
      const operation = operationOf(state, record.data.operationId);
      operation.attempts = record.data.attempt;
      operation.attemptOpen = true;
      delete operation.retryAt;
      return;
    }
    case 'operation-noted': {
      const operation = operationOf(state, record.data.operationId);
      operation.notes = { ...operation.notes, [record.data.key]: record.data.value };
      return;
    }
    case 'script-call-started': {
      const script = operationOf(state, record.data.scriptOperationId);
      const { operationId, index, call } = record.data;
      state.operations.set(operationId, {
        ...{ operationId, taskId: record.taskId, loop: script.loop, index: script.index, call },
        ...{ attempts: 0, attemptOpen: false, script: { operationId: script.operationId, index, requested: call.arguments } },
      });
      return;
    }
    case 'attempt-failed': {
      const operation = operationOf(state, record.data.operationId);
      operation.attemptOpen = false;
      operation.retryAt = record.data.retryAt;
      return;
    }
    case 'tool-gated': {
      const operation = operationOf(state, record.data.operationId);
      const { decision, reason, source, effectiveArguments, modifiedBy } = record.data;
      operation.gate = { decision, effectiveArguments, modifiedBy };
      if (reason !== undefined) operation.gate.reason = reason;
      if (source !== undefined) operation.gate.source = source;
      if (modifiedBy.length > 0) useEffectiveArguments(state, operation, effectiveArguments);
      return;
    }
    case 'approval-requested':
      operationOf(state, record.data.operationId);
      applyApprovalRequested(state, record.data);
      return;
    case 'approval-decided':
      applyApprovalDecided(state, record.data);
      return;
    case 'elicitation-requested':
      operationOf(state, record.data.operationId);
      applyElicitationRequested(state, record.data);
      return;
    case 'elicitation-answered':
      applyElicitationAnswered(state, record.data);
      return;
    case 'attempt-succeeded': {
      const operation = operationOf(state, record.data.operationId);
      operation.attemptOpen = false;
      operation.attempts = record.data.attempt;
      operation.rawResult = { attempt: record.data.attempt, raw: record.data.raw };
      return;
    }
    case 'hook-applied': {
      const verdict: HookVerdict = { decision: record.data.decision };
      if (record.data.reason !== undefined) verdict.reason = record.data.reason;
      if (record.data.source !== undefined) verdict.source = record.data.source;
      if (record.data.effective !== undefined) verdict.effective = record.data.effective;
      state.hookVerdicts.set(record.data.subject, verdict);
      if (record.data.subject === 'input' && typeof record.data.effective === 'string') {
        const entry = taskOf(state, ENTRY_TASK_ID);
        const inputIndex = entry.ownStart + state.carried.length;
        entry.messages[inputIndex] = { role: 'user', content: record.data.effective };
      }
      return;
    }
    case 'operation-finished': {
      const operation = operationOf(state, record.data.operationId);
      delete operation.rawResult;
      operation.attemptOpen = false;
      operation.attempts = record.data.attempts;
      delete operation.retryAt;
      operation.result = { status: record.data.status, content: record.data.content };
      if (record.data.failure) operation.result.failure = record.data.failure;
      return;
    }
    case 'task-created': {
      state.tasks.set(record.taskId, {
        taskId: record.taskId,
        role: record.data.role,
        parentOperationId: record.data.operationId,
        messages: [{ role: 'user', content: record.data.input }],
        ownStart: 0,
        protectedIndexes: [0],
        loop: 0,
        phase: 'ready',
        modelAttempts: 0,
        batch: [],
        invalidCallLoops: 0,
        ...(record.data.background ? { background: true } : {}),
      });
      return;
    }
    case 'task-resumed':
      resumeTask(taskOf(state, record.taskId), record.data);
      return;
    case 'supplement-accepted':
      state.supplements.set(record.data.supplementId, { text: record.data.text, consumed: false });
      return;
    case 'supplement-consumed': {
      const task = taskOf(state, record.taskId);
      for (const supplementId of record.data.supplementIds) {
        const supplement = state.supplements.get(supplementId);
        if (!supplement || supplement.consumed) continue;
        supplement.consumed = true;
        // A supplement a hook or guardrail refused is kept in the record but never shown (K-5).
        const verdict = state.hookVerdicts.get(`supplement:${supplementId}`);
        if (verdict?.decision === 'deny' || verdict?.decision === 'block') continue;
        task.protectedIndexes.push(task.messages.length);
        task.messages.push({
          role: 'user',
          content: typeof verdict?.effective === 'string' ? verdict.effective : supplement.text,
        });
      }
      return;
    }
    case 'compression-started':
      return;
    case 'compression-committed': {
      const task = taskOf(state, record.taskId);
      task.compression = { summary: record.data.summary, coveredUpTo: record.data.coveredUpTo };
      addUsage(state.usage, record.data.usage);
      return;
    }
    case 'task-finished': {
      const task = taskOf(state, record.taskId);
      task.phase = 'finished';
      task.outcome = { status: record.data.status };
      if (record.data.output !== undefined) task.outcome.output = record.data.output;
      if (record.data.failure) task.outcome.failure = record.data.failure;
      return;
    }
    case 'answer-rejected': {
      const task = taskOf(state, record.taskId);
      task.messages.push({ role: 'user', content: record.data.feedback });
      delete task.answer;
      task.phase = 'ready';
      return;
    }
    case 'batch-joined': {
      const task = taskOf(state, record.taskId);
      let invalid = false;
      for (const operationId of task.batch) {
        const operation = operationOf(state, operationId);
        if (operation.result?.failure?.kind === 'invalid-arguments') invalid = true;
        const message: Message = {
          role: 'tool',
          toolCallId: operation.call.id,
          toolName: operation.call.name,
          content: operation.result?.content ?? '',
        };
        if (operation.result?.status === 'failed') message.isError = true;
        task.messages.push(message);
      }
      task.invalidCallLoops = invalid ? task.invalidCallLoops + 1 : 0;
      task.phase = 'ready';
      return;
    }
    case 'run-finished':
      state.result = record.data;
      return;
    default:
      // Every record type is handled above: a new one that is not fails to compile here.
      // At run time an unknown type (another engine's record) changes nothing.
      record satisfies never;
      return;
  }
}

/**
 * Makes the effective arguments what every later reader sees (K-9): the call the tool runs, and
 * the assistant message in the task's context (a copy; the raw response stays in the journal).
 */
function useEffectiveArguments(state: AgentRunState, operation: OperationState, effectiveArguments: unknown): void {
  operation.call = { ...operation.call, arguments: effectiveArguments };
  const task = taskOf(state, operation.taskId);
  const index = task.messages.findIndex(
    (message) => message.role === 'assistant' && (message.toolCalls ?? []).some((call) => call.id === operation.call.id),
  );
  const message = task.messages[index];
  if (message?.role !== 'assistant') return;
  task.messages[index] = {
    ...message,
    toolCalls: (message.toolCalls ?? []).map((call) =>
      call.id === operation.call.id ? { ...call, arguments: effectiveArguments } : call,
    ),
  };
}

function addModelUsage(state: AgentRunState, model: { provider: string; modelId: string }, usage: Usage): void {
  const key = `${model.provider}/${model.modelId}`;
  const total = state.usageByModel.get(key) ?? emptyUsage();
  addUsage(total, usage);
  state.usageByModel.set(key, total);
}

function taskOf(state: AgentRunState, taskId: string): TaskState {
  const task = state.tasks.get(taskId);
  if (!task) throw new StoreFailureError(`Corrupt journal: it refers to unknown task ${taskId}.`);
  return task;
}

function operationOf(state: AgentRunState, operationId: string): OperationState {
  const operation = state.operations.get(operationId);
  if (!operation) throw new StoreFailureError(`Corrupt journal: it refers to unknown operation ${operationId}.`);
  return operation;
}
