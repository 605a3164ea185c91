export { type BackgroundCheckpoints, startBackgroundCheckpoints } from './background-checkpoints.js';
export { TURN_BUDGET_MS, yieldIfTurnIsLong } from './event-loop-turns.js';
export { LOCK_SPIN_MS, waitForLock } from './lock-waits.js';
export { FOREIGN_WRITE_CHECK_MS, type SqliteWriteRelay } from './sqlite-changes.js';
export { SqliteFactStore, type SqliteFactStoreOptions } from './sqlite-fact-store.js';
export { SqliteRunStore, type SqliteRunStoreOptions } from './sqlite-run-store.js';
