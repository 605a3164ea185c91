export type { ClaimedJob, Dispatcher } from './dispatcher.js';
export { LeaseTableDispatcher } from './lease-table-dispatcher.js';
export { openRunStore, runStoreSchemaOf } from './open-run-store.js';
export { RunWorker, type RunWorkerOptions } from './run-worker.js';
export { startSweeper } from './sweeper.js';
