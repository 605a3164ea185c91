import { AgentLoomError, hasErrorCode } from './agentloom-error.js';

/**
 * Answer to `run` on a run that a live owner is executing: no second executor was started
 * and the owner was not preempted. Carries when the owner's lease ends, so a caller that believes
 * the owner is dead knows when to try again.
 */
export class RunOwnedElsewhereError extends AgentLoomError {
  readonly runId: string;
  readonly ownerId: string;
  readonly leaseExpiresAt: number;

  constructor(runId: string, ownerId: string, leaseExpiresAt: number) {
    super(
      'owned-elsewhere',
      `Run ${runId} is owned by ${ownerId} until ${new Date(leaseExpiresAt).toISOString()}; not started twice.`,
    );
    this.runId = runId;
    this.ownerId = ownerId;
    this.leaseExpiresAt = leaseExpiresAt;
  }

  static override isInstance(error: unknown): error is RunOwnedElsewhereError {
    return hasErrorCode(error, 'owned-elsewhere');
  }
}

/**
 * A store refused a write because the caller's epoch (fencing token) is no longer current:
 * another owner took the run over. The writer must stop; nothing it wrote after the takeover landed.
 */
export class StaleEpochError extends AgentLoomError {
  readonly runId: string;
  readonly epoch: number;

  constructor(runId: string, epoch: number, detail = 'another owner holds the run') {
    super('stale-epoch', `Write to run ${runId} with epoch ${epoch} rejected: ${detail}.`);
    this.runId = runId;
    this.epoch = epoch;
  }

  static override isInstance(error: unknown): error is StaleEpochError {
    return hasErrorCode(error, 'stale-epoch');
  }
}

/**
 * A store refused a conditional write (`AppendRequest.ifLastSequence`) because entries were
 * appended to the run since the sequence the writer named (a supplement, a stop request from any
 * machine). Nothing was written; the writer reads the newer entries and decides again. Not a loss
 * of ownership: the writer's epoch is still current.
 */
export class JournalMovedError extends AgentLoomError {
  readonly runId: string;
  readonly expectedSequence: number;
  readonly lastSequence: number;

  constructor(runId: string, expectedSequence: number, lastSequence: number) {
    super(
      'journal-moved',
      `Conditional write to run ${runId} not made: its journal ends at ${lastSequence}, not at ${expectedSequence}.`,
    );
    this.runId = runId;
    this.expectedSequence = expectedSequence;
    this.lastSequence = lastSequence;
  }

  static override isInstance(error: unknown): error is JournalMovedError {
    return hasErrorCode(error, 'journal-moved');
  }
}

/**
 * The run's executor in this process stopped because it lost ownership (its lease was taken over
 * or could not be renewed). The run is not lost: its new owner continues it from the journal.
 */
export class OwnershipLostError extends AgentLoomError {
  readonly runId: string;

  constructor(runId: string, options?: { cause?: unknown }) {
    super('ownership-lost', `This process no longer owns run ${runId}; it stopped without further writes.`, options);
    this.runId = runId;
  }

  static override isInstance(error: unknown): error is OwnershipLostError {
    return hasErrorCode(error, 'ownership-lost');
  }
}

/**
 * The run was handed over by its host (`run.detach()`): this process stopped admitting
 * work, kept what settled within the bound, and released the lease without ending the run. It is
 * not a failure: `agent.run({ sessionId, runId })` in any process takes the run over at once and
 * continues it from the journal. Carries what a host needs to queue the run again.
 */
export class RunDetachedError extends AgentLoomError {
  readonly runId: string;
  readonly sessionId: string;

  constructor(runId: string, sessionId: string) {
    super('run-detached', `Run ${runId} was handed over: its lease is released and any process may continue it now.`);
    this.runId = runId;
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is RunDetachedError {
    return hasErrorCode(error, 'run-detached');
  }
}
