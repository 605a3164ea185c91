export { type Commit, DurableRun, type DurableRunOptions } from './durable-run.js';
export { type InterruptReason, RunControl, RunInterrupt } from './run-control.js';
