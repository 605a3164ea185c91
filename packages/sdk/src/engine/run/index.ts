export { type Commit, DurableRun, type DurableRunOptions } from './durable-run.js';
export { EventStream } from './event-stream.js';
export { type InterruptReason, RunControl, RunInterrupt } from './run-control.js';
export {
  findRunRequest,
  hasStopRequest,
  type RunRequestedRecord,
  type StopRequestedRecord,
  stopRequestEntry,
} from './run-requests.js';
