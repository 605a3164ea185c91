import type { RunDescription } from '@agentloom/sdk';
import type { RunRow } from '../../adapters/database/schema.js';

/** The run status the API shows (PLATFORM.md §4.4), a projection of the SDK's status, never stored. */
export type ApiRunStatus = 'queued' | 'running' | 'waiting-input' | 'stopping' | 'succeeded' | 'failed' | 'stopped';

/** Every API run status, for the response schemas. */
export const apiRunStatuses = ['queued', 'running', 'waiting-input', 'stopping', 'succeeded', 'failed', 'stopped'] as const;

/**
 * Maps the SDK's description to the API status: a pending run is queued; a running run with a
 * stop request is stopping; a running run that waits for a person — a workflow's input node not
 * yet answered, an agent's approval not yet decided (issue 36), an MCP server's question not yet
 * answered (ADR 0038) — is `waiting-input`. A listing
 * (built from run rows, without journals) shows such a run as `running`.
 */
export function apiStatusOf(
  description: Pick<RunDescription, 'status' | 'stopRequest'> & Partial<Pick<RunDescription, 'pendingInputs' | 'agent'>>,
): ApiRunStatus {
  if (description.status === 'pending') return 'queued';
  if (description.status === 'running') {
    if (description.stopRequest) return 'stopping';
    return waitsForInput(description) ? 'waiting-input' : 'running';
  }
  return description.status as ApiRunStatus;
}

function waitsForInput(description: Partial<Pick<RunDescription, 'pendingInputs' | 'agent'>>): boolean {
  if ((description.pendingInputs?.length ?? 0) > 0) return true;
  if (description.agent?.elicitations?.some((question) => question.status === 'pending')) return true;
  return description.agent?.approvals.some((approval) => approval.decision === undefined) ?? false;
}

/** A run as `GET /runs/:runId` shows it: the platform's index row joined with what the SDK says now. */
export function runView(row: RunRow, description: RunDescription) {
  return {
    id: row.id,
    appId: row.app_id,
    sessionId: row.session_id,
    releaseId: row.release_id,
    status: apiStatusOf(description),
    pendingInputs: (description.pendingInputs ?? []).map(
      ({ interruptId, taskId, node, question, schema, choices, deadlineAt, askedAt }) => ({
        interruptId,
        taskId,
        node,
        question,
        schema: schema ?? null,
        choices: choices ?? null,
        deadlineAt: deadlineAt === undefined ? null : new Date(deadlineAt).toISOString(),
        askedAt: new Date(askedAt).toISOString(),
      }),
    ),
    reason: description.reason ?? null,
    stopCause: row.stop_cause,
    output: description.result?.output ?? null,
    owner: description.owner,
    usage: description.usage,
    loops: description.loops,
    lastSequence: description.lastSequence,
    createdAt: row.created_at,
  };
}
