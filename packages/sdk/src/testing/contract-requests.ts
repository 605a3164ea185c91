import type { RunResult } from '../core/run-result.js';
import type { AcquireRequest, CreateRunRequest } from '../store/run-store.js';

// The requests and results the contract cases make: unique ids, one session, an hour's deadline.

let counter = 0;
export function request(overrides: Partial<AcquireRequest> = {}): AcquireRequest {
  counter += 1;
  return {
    runId: `contract-run-${process.pid}-${Date.now()}-${counter}`,
    sessionId: 'contract-session',
    ownerId: 'owner-a',
    leaseMs: 60_000,
    deadlineAt: Date.now() + 3_600_000,
    initialEntries: [{ type: 'run-started', data: { input: 'question' } }],
    ...overrides,
  };
}

export function pendingRequest(overrides: Partial<CreateRunRequest> = {}): CreateRunRequest {
  counter += 1;
  return {
    runId: `contract-pending-${process.pid}-${Date.now()}-${counter}`,
    sessionId: 'contract-session',
    labels: { kind: 'workflow', name: 'writer', metadata: { release: 'r-1', space: 'north' } },
    entries: [{ type: 'run-requested', data: { input: 'question' } }],
    ...overrides,
  };
}

export function result(runId: string, overrides: Partial<RunResult> = {}): RunResult {
  return {
    runId,
    sessionId: 'contract-session',
    status: 'succeeded',
    output: 'answer',
    loops: 2,
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    ...overrides,
  };
}
