import { z } from 'zod';

const DEFAULT_MAX_INVALID_TOOL_CALL_LOOPS = 3;

/**
 * The execution settings of an agent (C-3…C-11) with their defaults. They are resolved once when
 * a run is created and stored in its journal, so that a resumed run keeps its own budget,
 * deadline and retry rules even if the code now says otherwise (C-15).
 */
export const executionOptionsSchema = z
  .object({
    /** Business loop limit shared by every role of a run (C-3, X-9). */
    maxLoops: z.number().int().min(1).default(100),
    /** Run timeout from creation; covers everything and is never restarted (C-4, X-10). */
    timeoutMs: z.number().int().positive().default(3_600_000),
    /** Run the members of a batch concurrently (C-5, X-4). */
    parallel: z.boolean().default(false),
    /** Active executor tasks of one planner batch when parallel is on (C-6). */
    maxParallelExecutors: z.number().int().min(1).default(2),
    retry: z
      .object({
        /** Runtime auto-retry switch (C-7). */
        enabled: z.boolean().default(false),
        /** Total attempts per logical call, the first included (C-8). */
        attempts: z.number().int().min(1).default(2),
        /** Wait before a retry (C-9); counts toward the deadline. */
        waitMs: z.number().int().min(0).default(2000),
      })
      .strict()
      .prefault({}),
    /** Timeout of one tool attempt, bounded by the remaining run time (C-10). */
    toolTimeoutMs: z.number().int().positive().default(10_000),
    /** Longest wait for a model's first output (C-11). */
    modelFirstOutputTimeoutMs: z.number().int().positive().default(60_000),
    /** Longest silence inside a model stream once it has started. */
    modelStallTimeoutMs: z.number().int().positive().default(60_000),
    /**
     * Consecutive loops of one task in which the model's tool calls may be invalid (arguments
     * not JSON, or refused by the tool's schema) and are given back to it to correct; one more
     * ends the run `invalid-tool-calls`. Every such loop is charged to the loop budget too.
     */
    maxInvalidToolCallLoops: z.number().int().min(0).default(DEFAULT_MAX_INVALID_TOOL_CALL_LOOPS),
  })
  .strict();

/**
 * The limit of consecutive invalid-tool-call loops of a run. Runs journaled before the setting
 * existed have none stored and get the default.
 */
export function maxInvalidToolCallLoops(execution: ResolvedExecution): number {
  return execution.maxInvalidToolCallLoops ?? DEFAULT_MAX_INVALID_TOOL_CALL_LOOPS;
}

/** Execution settings as a caller writes them: every field optional. */
export type ExecutionOptions = z.input<typeof executionOptionsSchema>;

/** Execution settings with every default filled in, as stored in a run's journal. */
export type ResolvedExecution = z.output<typeof executionOptionsSchema>;
