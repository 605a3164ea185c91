import type { RunResult } from '../../core/run-result.js';
import { ExecutingRun } from '../run/run-handle.js';
import type { RunEvent } from './run-events.js';
import { type SupplementReceipt, submitSupplement } from './supplements.js';

/**
 * A run in progress, returned by `agent.run()`: the `RunHandle` both engines share (events with
 * replay for a late reader, result, a durable stop, detach), plus supplements while it is active.
 */
export class AgentRun extends ExecutingRun<RunEvent, RunResult> {
  /**
   * Adds a user message to this run while it is active (S-1…S-3); the entry role sees it before its
   * next model call. Rejects with `RunNotActiveError` once the run has ended (S-2).
   */
  async supplement(text: string): Promise<SupplementReceipt> {
    await this.acquired;
    return submitSupplement(this.store, { sessionId: this.sessionId, runId: this.runId, text });
  }
}
