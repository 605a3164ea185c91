export { type Commit, DurableRun, type DurableRunOptions } from './durable-run.js';
export { EventStream } from './event-stream.js';
export {
  type DurableRunSteps,
  executeDurableRun,
  type OpenedRun,
  type RunCreation,
  type StoreCall,
} from './execute-durable-run.js';
export { type JournalReader, journalReader, type StoredRecord } from './journal-reader.js';
export { type InterruptReason, RunControl, RunInterrupt } from './run-control.js';
export { ExecutingRun, type ExecutingRunOptions, type RunHandle, type RunReporter } from './run-handle.js';
export {
  findRunRequest,
  hasStopRequest,
  type RunRequestedRecord,
  type StopRequestedRecord,
  stopRequestEntry,
} from './run-requests.js';
