export { type RunStartContext, resolveHistory, selectHistory } from './select-history.js';
export {
  digestOf,
  readSessionRecord,
  readSessionRuns,
  type SessionReadOptions,
  type SessionRun,
  type SessionRunSummary,
} from './session-runs.js';
