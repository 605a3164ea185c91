export type { ClaimedJob, Dispatcher, RunRequirements } from './dispatcher.js';
export { LeaseTableDispatcher } from './lease-table-dispatcher.js';
export { openRunStore, runStoreSchemaOf } from './open-run-store.js';
export { isolatedRunQueue, PgBossDispatcher, plainRunQueue } from './pg-boss-dispatcher.js';
export { releaseNeedsIsolation, requirementsOfRelease } from './run-requirements.js';
export { RunWorker, type RunWorkerOptions } from './run-worker.js';
export { startSweeper } from './sweeper.js';
export { detectWorkerCapabilities, type WorkerCapabilities } from './worker-capabilities.js';
