import type { AgentJournalRecord } from './agent-journal.js';

/** A decision on an approval: the first one wins. */
export interface ApprovalDecided {
  approved: boolean;
  reason?: string;
  decidedBy: string;
}

/** A gate's approval of an operation (K-5): requested, then decided once. */
export interface OperationApproval {
  requested: boolean;
  /** When an unanswered request is denied (epoch ms), fixed when it was requested. */
  expiresAt?: number;
  decided?: ApprovalDecided;
}

/** An approval a running call asked for: requested once, decided once (the first decision wins). */
export interface CallApprovalState {
  operationId: string;
  /** When an unanswered request is denied (epoch ms), fixed when it was requested. */
  expiresAt?: number;
  decided?: ApprovalDecided;
}

/** What the approval records change: the gate approvals on operations and the calls' own approvals. */
interface ApprovalScope {
  operations: ReadonlyMap<string, { approval?: OperationApproval; result?: unknown }>;
  callApprovals: Map<string, CallApprovalState>;
}

type Requested = Extract<AgentJournalRecord, { type: 'approval-requested' }>['data'];
type Decided = Extract<AgentJournalRecord, { type: 'approval-decided' }>['data'];

/**
 * Applies `approval-requested`: a gate's request (approval id = operation id) goes on its
 * operation, a call's own request (`<operationId>#<key>`) into `callApprovals`.
 */
export function applyApprovalRequested(scope: ApprovalScope, data: Requested): void {
  const expiresAt = data.expiresAt !== undefined ? { expiresAt: data.expiresAt } : {};
  if (data.approvalId !== data.operationId) {
    scope.callApprovals.set(data.approvalId, { operationId: data.operationId, ...expiresAt });
    return;
  }
  const operation = scope.operations.get(data.operationId);
  if (operation) operation.approval = { requested: true, ...expiresAt };
}

/**
 * Applies `approval-decided`. Decisions may come from outside (another machine); an unknown or
 * already decided approval, or one of a finished call, is ignored: the first decision wins.
 */
export function applyApprovalDecided(scope: ApprovalScope, data: Decided): void {
  const decided: ApprovalDecided = { approved: data.approved, decidedBy: data.decidedBy };
  if (data.reason !== undefined) decided.reason = data.reason;
  const asked = scope.callApprovals.get(data.approvalId);
  if (asked) {
    if (!asked.decided && !scope.operations.get(asked.operationId)?.result) asked.decided = decided;
    return;
  }
  const operation = scope.operations.get(data.approvalId);
  if (!operation || operation.approval?.decided || operation.result) return;
  operation.approval = { requested: operation.approval?.requested ?? false, decided };
}
