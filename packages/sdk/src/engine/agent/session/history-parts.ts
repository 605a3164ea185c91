import type { SessionCheckpoint } from '../agent-journal.js';

/** One run of a history's older-run summary (H-3), as its lines there. */
export interface SummarisedRun {
  runId: string;
  createdAt: number;
  /** Its number in the session (1 = the first run); a checkpoint through it covers this many runs. */
  number: number;
  /** Its lines in the summary, numbered in the session. */
  text: string;
  /**
   * Finished, and every supplement it left unconsumed was carried by an earlier run already: a
   * session checkpoint may cover it (S-4, ADR 0012).
   */
  settled: boolean;
}

/**
 * How a run's history is made up (ADR 0012): the checkpoint it starts from, the runs of the
 * older-run summary in order, and how many leading history messages those two are (the part a
 * new checkpoint replaces; the full runs follow). Rebuilt identically when the run resumes.
 */
export interface HistoryParts {
  base?: SessionCheckpoint;
  summarised: SummarisedRun[];
  headLength: number;
}
