export { type CreateRunOptions, type Page, RunClient, type RunClientOptions, type RunSummary } from './run-client.js';
export type * from './run-description.js';
