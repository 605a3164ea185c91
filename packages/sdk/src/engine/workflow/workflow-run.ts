import { ExecutingRun } from '../run/run-handle.js';
import type { WorkflowEvent, WorkflowResult } from './workflow-events.js';

/**
 * A workflow run in progress, returned by `workflow.run()`: the `RunHandle` both engines share.
 * Its events as they happen (a late reader gets every event since the run began in this process),
 * its result (`interrupted` when it waits for a resume), a durable stop and the hand-over.
 *
 * A stop (W-5, S-5) reaches the whole run: no new task starts; tasks in flight settle and their
 * results are kept; inner agent runs are stopped too; the run ends `stopped`. A detach hands the
 * run over like an agent run's: inner agent runs in flight are detached within the same
 * bound, so an agent that finished is never run again and an unfinished one continues its own
 * inner run under the next owner.
 */
export class WorkflowRun<State = Record<string, unknown>> extends ExecutingRun<WorkflowEvent, WorkflowResult<State>> {}
