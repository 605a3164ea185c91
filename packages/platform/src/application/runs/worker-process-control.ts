/** The worker process that owns a run, as "Crash the worker" reports it (ADR 0034). */
export interface WorkerProcessOwner {
  workerId: string;
  pid: number;
}

/**
 * What the HTTP app may do with the embedded default's worker process (issue 35, ADR 0034); the
 * worker layer's `WorkerSupervisor` implements it, the HTTP layer sees only this port.
 */
export interface WorkerProcessControl {
  /** The worker process executing `runId` now, if it is one of ours. */
  ownerOf(runId: string): WorkerProcessOwner | undefined;
  /** SIGKILLs the worker process executing `runId`; a fresh one is started in its place. */
  crashOwnerOf(runId: string): WorkerProcessOwner | undefined;
}
