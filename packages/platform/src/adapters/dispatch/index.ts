export type { ClaimedJob, Dispatcher, RunRequirements } from './dispatcher.js';
export { JobWakeUps, jobChannelOf } from './job-wake-ups.js';
export { LeaseTableDispatcher } from './lease-table-dispatcher.js';
export { isolatedRunQueue, PgBossDispatcher, plainRunQueue } from './pg-boss-dispatcher.js';
