export type { HistoryParts, SummarisedRun } from './history-parts.js';
export { type RunStartContext, resolveHistory, type SelectedHistory, selectHistory, summaryText } from './select-history.js';
export {
  digestOf,
  readSessionRecord,
  readSessionRuns,
  type SessionReadOptions,
  type SessionRun,
  type SessionRunSummary,
} from './session-runs.js';
export { regenerationOf, replacedRuns } from './variants.js';
