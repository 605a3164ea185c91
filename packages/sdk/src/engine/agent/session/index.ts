export { type RunStartContext, selectHistory } from './select-history.js';
export { readSessionRuns, type SessionRun } from './session-runs.js';
