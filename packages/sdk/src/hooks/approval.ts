/** What needs a decision: a call whose gate said `ask` (K-5, N-1). */
export interface ApprovalRequest {
  /** Stable across crashes and machines: decide with this id (`RunClient.decideApproval`). */
  approvalId: string;
  runId: string;
  sessionId: string;
  role: string;
  taskId: string;
  toolName: string;
  /** The effective arguments the call would run with. */
  arguments: unknown;
  reason: string;
}

/** A decision on an approval request. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/**
 * Where `ask` goes (K-5). A pending approval lives in the run's journal, so it survives a crash
 * and cannot be decided after the run is final. The port is told about each request (again after
 * a takeover, with the same id) and may answer directly; otherwise the decision arrives through
 * `RunClient.decideApproval(runId, …)` from any machine. An unanswered request is denied at the approval timeout.
 */
export interface ApprovalPort {
  request(approval: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined> | ApprovalDecision | undefined;
}
