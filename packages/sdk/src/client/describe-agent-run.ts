import { agentJournal } from '../engine/agent/agent-journal.js';
import { type AgentRunState, foldAgentJournal, type OperationState } from '../engine/agent/agent-state.js';
import type { JournalEntry } from '../store/run-store.js';
import type {
  AgentRunDescription,
  CompressionDescription,
  HookChangeDescription,
  OperationStatus,
  SupplementDescription,
} from './run-description.js';

/**
 * Describes the inside of an agent run from its journal (P-10), with the same reducer the engine
 * uses, so the view shows exactly the state an owner would recover. `ownerLive` tells an attempt
 * in flight (`running`) from one whose outcome is lost (`unknown`, X-7).
 */
export function describeAgentRun(
  runId: string,
  journal: readonly JournalEntry[],
  options: { ownerLive: boolean; finished: boolean },
): { state: AgentRunState; description: AgentRunDescription } {
  const state = foldAgentJournal(runId, journal);
  const description: AgentRunDescription = {
    mode: state.mode,
    entryRole: state.entryRole,
    deadlineAt: state.deadlineAt,
    maxLoops: state.execution.maxLoops,
    tasks: [...state.tasks.values()].map((task) => {
      const parent = task.parentOperationId ? state.operations.get(task.parentOperationId)?.taskId : undefined;
      return {
        taskId: task.taskId,
        role: task.role,
        ...(parent !== undefined ? { parentTaskId: parent } : {}),
        loop: task.loop,
        phase: task.phase,
        batch: [...task.batch],
        ...(task.outcome ? { outcome: { ...task.outcome } } : {}),
      };
    }),
    operations: [...state.operations.values()].map((operation) => ({
      operationId: operation.operationId,
      taskId: operation.taskId,
      loop: operation.loop,
      toolName: operation.call.name,
      arguments: operation.call.arguments,
      attempts: operation.attempts,
      status: operationStatus(operation, options),
      ...(operation.retryAt !== undefined && !operation.result ? { retryAt: operation.retryAt } : {}),
      ...(operation.result ? { content: operation.result.content } : {}),
      ...(operation.result?.failure ? { failure: operation.result.failure } : {}),
      ...(operation.gate
        ? {
            gate: {
              decision: operation.gate.decision,
              ...(operation.gate.reason !== undefined ? { reason: operation.gate.reason } : {}),
              ...(operation.gate.source !== undefined ? { source: operation.gate.source } : {}),
            },
          }
        : {}),
    })),
    approvals: approvalsOf(journal, state),
    elicitations: elicitationsOf(journal, state),
    supplements: supplementsOf(state, options.finished),
    compressions: compressionsOf(journal),
    hookChanges: hookChangesOf(journal, state),
  };
  return { state, description };
}

function operationStatus(operation: OperationState, options: { ownerLive: boolean; finished: boolean }): OperationStatus {
  if (operation.result) return operation.result.status;
  if (operation.attemptOpen) return options.ownerLive ? 'running' : 'unknown';
  if (operation.approval?.requested && !operation.approval.decided) return 'waiting-approval';
  if (operation.retryAt !== undefined) return 'retrying';
  return 'pending';
}

function approvalsOf(journal: readonly JournalEntry[], state: AgentRunState): AgentRunDescription['approvals'] {
  return journal.flatMap((entry) => {
    const record = agentJournal.recordOf(entry);
    if (record.type !== 'approval-requested') return [];
    const decided =
      record.data.approvalId === record.data.operationId
        ? state.operations.get(record.data.operationId)?.approval?.decided
        : state.callApprovals.get(record.data.approvalId)?.decided;
    return [
      {
        approvalId: record.data.approvalId,
        toolName: record.data.toolName,
        arguments: record.data.arguments,
        reason: record.data.reason,
        ...(record.data.expiresAt !== undefined ? { expiresAt: record.data.expiresAt } : {}),
        ...(decided ? { decision: { ...decided } } : {}),
      },
    ];
  });
}

function elicitationsOf(journal: readonly JournalEntry[], state: AgentRunState): AgentRunDescription['elicitations'] {
  return journal.flatMap((entry) => {
    const record = agentJournal.recordOf(entry);
    if (record.type !== 'elicitation-requested') return [];
    const { elicitationId, operationId, toolName, server, message, mode, requestedSchema, url, expiresAt } = record.data;
    const answered = state.elicitations.get(elicitationId)?.answered;
    const ended = state.operations.get(operationId)?.result !== undefined;
    return [
      {
        ...{ elicitationId, operationId, toolName, server, message, mode, expiresAt },
        ...(requestedSchema ? { requestedSchema } : {}),
        ...(url ? { url } : {}),
        status: answered ? 'answered' : ended ? 'ended' : 'pending',
        ...(answered ? { answer: { ...answered } } : {}),
      },
    ];
  });
}

function supplementsOf(state: AgentRunState, finished: boolean): SupplementDescription[] {
  const carried: SupplementDescription[] = state.carried.map((supplement) => ({
    supplementId: supplement.supplementId,
    text: supplement.text,
    status: 'consumed',
    carriedFrom: supplement.runId,
  }));
  const own: SupplementDescription[] = [...state.supplements].map(([supplementId, supplement]) => ({
    supplementId,
    text: supplement.text,
    status: supplement.consumed ? 'consumed' : finished ? 'carried-over' : 'accepted',
  }));
  return [...carried, ...own];
}

function compressionsOf(journal: readonly JournalEntry[]): CompressionDescription[] {
  return journal.flatMap((entry) => {
    const record = agentJournal.recordOf(entry);
    return record.type === 'compression-committed'
      ? [{ taskId: record.taskId, coveredUpTo: record.data.coveredUpTo, usage: record.data.usage }]
      : [];
  });
}

function hookChangesOf(journal: readonly JournalEntry[], state: AgentRunState): HookChangeDescription[] {
  const changes: HookChangeDescription[] = [];
  const rawArguments = new Map<string, unknown>();
  for (const entry of journal) {
    const record = agentJournal.recordOf(entry);
    if (record.type === 'model-responded') {
      for (const [index, call] of (record.data.message.toolCalls ?? []).entries()) {
        rawArguments.set(`${record.taskId}/${record.data.loop}/${index}`, call.arguments);
      }
    } else if (record.type === 'tool-gated' && record.data.modifiedBy.length > 0) {
      changes.push({
        subject: `tool-arguments:${record.data.operationId}`,
        source: record.data.modifiedBy.join(', '),
        raw: rawArguments.get(record.data.operationId),
        effective: record.data.effectiveArguments,
      });
    } else if (record.type === 'operation-finished' && record.data.rawContent !== undefined) {
      changes.push({
        subject: `tool-result:${record.data.operationId}`,
        ...(record.data.modifiedBy ? { source: record.data.modifiedBy.join(', ') } : {}),
        raw: record.data.rawContent,
        effective: record.data.content,
      });
    } else if (record.type === 'hook-applied' && record.data.effective !== undefined) {
      changes.push({
        subject: record.data.subject,
        ...(record.data.source !== undefined ? { source: record.data.source } : {}),
        raw: rawSubject(record.data.subject, state),
        effective: record.data.effective,
      });
    }
  }
  return changes;
}

/** The unchanged value of a hook's subject, where the journal keeps it elsewhere. */
function rawSubject(subject: string, state: AgentRunState): unknown {
  if (subject === 'input') return state.input;
  if (subject.startsWith('supplement:')) return state.supplements.get(subject.slice('supplement:'.length))?.text;
  return undefined;
}
