import type { RunDescription } from '@agentloom/sdk';
import type { RunRow } from '../../adapters/database/schema.js';

/** The run status the API shows (PLATFORM.md §4.4), a projection of the SDK's status, never stored. */
export type ApiRunStatus = 'queued' | 'running' | 'stopping' | 'succeeded' | 'failed' | 'stopped';

/** Maps the SDK's description to the API status: a pending run is queued; a running run with a stop request is stopping. */
export function apiStatusOf(description: Pick<RunDescription, 'status' | 'stopRequest'>): ApiRunStatus {
  if (description.status === 'pending') return 'queued';
  if (description.status === 'running') return description.stopRequest ? 'stopping' : 'running';
  return description.status as ApiRunStatus;
}

/** A run as `GET /runs/:runId` shows it: the platform's index row joined with what the SDK says now. */
export function runView(row: RunRow, description: RunDescription) {
  return {
    id: row.id,
    appId: row.app_id,
    sessionId: row.session_id,
    releaseId: row.release_id,
    status: apiStatusOf(description),
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
